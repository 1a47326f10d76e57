# Headless Chromium for mcpdesc-docs/tests/browser.rs (`mcpdesc docs` pages in a real
# browser): Debian's `chromium` package, never a downloaded browser. Sourced by .ci/run.
# Pinned to the version the tests were written against; Debian's security archive keeps
# only the newest build of a release, so when the pin is gone the current one is taken,
# with a warning.
MCPDESC_CHROMIUM_VERSION="156.0.8078.114-1~deb12u1"
if ! command -v chromium >/dev/null 2>&1; then
  mcpdesc_apt=(apt-get)
  if [ "$(id -u)" -ne 0 ]; then
    mcpdesc_apt=(sudo apt-get)
  fi
  "${mcpdesc_apt[@]}" update -qq
  if ! DEBIAN_FRONTEND=noninteractive "${mcpdesc_apt[@]}" install -y -qq --no-install-recommends \
    "chromium=$MCPDESC_CHROMIUM_VERSION"; then
    echo "warning: chromium $MCPDESC_CHROMIUM_VERSION is not in the archive any more; installing the current build" >&2
    DEBIAN_FRONTEND=noninteractive "${mcpdesc_apt[@]}" install -y -qq --no-install-recommends chromium
  fi
  unset mcpdesc_apt
fi
chromium --headless --no-sandbox --version
