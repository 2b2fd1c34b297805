# Shared by the test scripts that drive `feedwork serve` (Tests/Browser/run.sh,
# Tests/OpenAPI/run.sh); source it, then call its functions.

# Exits unless every named variable is an executable: 0 with a note, or 1 when CI is set.
require_executables() {
    local missing=() variable
    for variable in "$@"; do
        if [[ -z "${!variable:-}" || ! -x "${!variable}" ]]; then missing+=("$variable"); fi
    done
    if ((${#missing[@]})); then
        echo "NOT RUN: ${missing[*]} not set to an executable (see $0)" >&2
        [[ -n "${CI:-}" ]] && exit 1
        exit 0
    fi
}

# Makes the scratch folder $work (removed on exit, with the server), holding the Adapters of
# the repository $repo and feeds.yaml (the default feeds, then the files named as arguments).
scratch_folder() {
    work=$(mktemp -d)
    server=""
    trap 'if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
    ln -s "$repo/Adapters" "$work/Adapters"
    cat "$repo/feeds.yaml" > "$work/feeds.yaml"
    local extra
    for extra in "$@"; do { echo; cat "$extra"; } >> "$work/feeds.yaml"; done
}

# Runs every feed of $work/feeds.yaml with $FEEDWORK, serves the store on a free loopback port
# (its process id in $server) and sets $url to the server's address, waiting up to 60 s.
run_and_serve() {
    (cd "$work" && "$FEEDWORK" run -q > "$work/run.log" 2>&1) || { cat "$work/run.log"; exit 1; }
    "$FEEDWORK" serve -c "$work/feeds.yaml" --port 0 2> "$work/serve.log" &
    server=$!
    url=""
    for _ in $(seq 1 600); do
        url=$(grep -o 'http://[^ ]*/' "$work/serve.log" 2>/dev/null || true)
        [[ -n "$url" ]] && break
        sleep 0.1
    done
    [[ -n "$url" ]] || { echo "feedwork serve did not start:"; cat "$work/serve.log"; exit 1; }
}
