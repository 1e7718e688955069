"""The use cases: the work the `dipgen` command (`dipgen.cli`) and the MkDocs plugin share, or that
a command does beyond reading its arguments and printing: load a game and check it (`games`), the
files a site publishes (`publish`) and its layout (`siteconfig`), export, the leak scan, mail, the
archive `dipgen init` makes. They import the inner rooms only, never a command or the plugin."""
