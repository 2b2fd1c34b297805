#!/usr/bin/env bash
# The floor of an unchanged second pass, as a curl config on stdout: the conditional requests a
# pass would make for FEED's pages, one per entry of the store's HTTP cache, with its validators
# (If-None-Match, else If-Modified-Since), each body to /dev/null and its status on stdout.
# `Benchmarks/run.sh` times `curl --parallel --parallel-max P --config FILE` of it: the curl
# command alone, in C, revalidating the same pages the same number at a time, storing nothing.
#
# Usage: Benchmarks/revalidate-floor.sh STORE FEED > revalidate.curl
#   STORE   a store feedwork wrote (its _http_cache table is read)
#   FEED    the feed whose pages are revalidated
set -euo pipefail
store=$1; feed=$2
# One `next`-separated block a page. In a curl config, a quoted value escapes \ and ".
sqlite3 -separator $'\t' "$store" \
    "SELECT url, COALESCE(etag, ''), COALESCE(last_modified, '') FROM _http_cache WHERE feed = '${feed//\'/\'\'}' ORDER BY url" |
    awk -F'\t' '
        function quoted(text) { gsub(/\\/, "\\\\\\\\", text); gsub(/"/, "\\\"", text); return "\"" text "\"" }
        NR > 1 { print "next" }
        {
            print "url = " quoted($1)
            if ($2 != "") print "header = " quoted("If-None-Match: " $2)
            else if ($3 != "") print "header = " quoted("If-Modified-Since: " $3)
            print "output = \"/dev/null\""
            print "write-out = \"%{http_code}\\n\""
            print "silent"
        }'
