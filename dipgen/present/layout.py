"""The names of a site's layout where its configuration names no other, in one place: the plugin's
defaults, `dipgen check`'s and `dipgen export`'s reading of mkdocs.yml
(`dipgen.usecases.siteconfig`), the pages' options (`dipgen.present.site.pages.SiteOptions`) and
the commands' own defaults all take them from here. A module of names alone, so that the `dipgen`
command can print its help without loading the site's pages."""

#: the site's configuration, at the top of the archive
CONFIG_FILE = "mkdocs.yml"
#: the folder of game folders, beside mkdocs.yml (the plugin's ``games_dir``)
GAMES_DIR = "games"
#: the hand-written pages (MkDocs' own default ``docs_dir``)
DOCS_DIR = "docs"
#: where the generated pages go in the site, the archive being ``<PREFIX>/index.md`` (``prefix``)
PREFIX = "games"
#: the rules pages, one per variant: ``<RULES_DIR>/<variant>.md`` (``rules_dir``)
RULES_DIR = "rules"
