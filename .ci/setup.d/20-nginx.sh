# nginx from Debian's packages, for the load-balancer test of chess-server
# (examples/chess-server/tests/nginx.rs): two `--stateless` instances behind nginx.
# Pinned to the bookworm security release; when the archive has moved past it, the
# current bookworm package is installed with a notice (the test needs only
# `proxy_pass` to an upstream, which every nginx has).
NGINX_VERSION="1.22.1-9+deb12u12"
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    SUDO=""
    [ "$(id -u)" = "0" ] || SUDO="sudo"
    $SUDO apt-get update -qq
    if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "nginx-light=${NGINX_VERSION}"; then
        echo "setup.d/20-nginx: nginx-light=${NGINX_VERSION} is not available; installing the current nginx-light" >&2
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light
    fi
    # The package starts a system nginx on port 80; the tests run their own.
    $SUDO service nginx stop >/dev/null 2>&1 || true
fi
export MCPDESC_NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
