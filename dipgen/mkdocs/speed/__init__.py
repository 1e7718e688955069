"""What makes a build of the results site fast, and safe to interrupt: the build cache, pages
handed to MkDocs as HTML, reuse of unchanged pages under serve, remembered hand-written pages,
the theme's memoized partials and environments, and staging."""
