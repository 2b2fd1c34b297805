// The built-in adapters as one list, `builtinAdapters`, for `feedwork` and for programs of their
// own that run Feedwork's command line with them (`Feedwork.main(adapters:)`). The
// `BuiltinAdapterList` plugin writes the list from the adapter targets that Package.swift names in
// its `builtinAdapters`; this file is here because a target needs one source of its own.
