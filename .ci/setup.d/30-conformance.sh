# The official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12)
# and the Node.js 22 it needs (the npm package node@22: the suite uses APIs Node 20
# lacks), pinned by tests/conformance-suite/package-lock.json and installed there
# (git-ignored node_modules). examples/conformance-server/tests/suite.rs runs it.
(cd tests/conformance-suite && npm ci --no-audit --no-fund)
export MCPDESC_CONFORMANCE_NODE="$PWD/tests/conformance-suite/node_modules/node/bin/node"
"$MCPDESC_CONFORMANCE_NODE" --version
