import FeedworkAdapters
import FeedworkCLI

// `feedwork`: the command line with the built-in adapters, as a program of one's own would run it
// with its adapters added (docs/adapters/own-package.md).
await Feedwork.main(adapters: builtinAdapters)
