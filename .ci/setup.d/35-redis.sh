# redis-server from Debian's packages, for the shared-state tests of the HTTP runtime
# (mcpdesc/tests/http_redis.rs: two stateful instances sharing one Redis). Each test
# starts its own redis-server on a free port; the system service is stopped.
# Pinned to the bookworm security release; when the archive has moved past it, the
# current bookworm package is installed with a notice (the tests need Redis >= 6.2,
# which every bookworm package is).
REDIS_VERSION="5:7.0.15-1~deb12u7"
if ! command -v redis-server >/dev/null 2>&1 && [ ! -x /usr/bin/redis-server ]; then
    SUDO=""
    [ "$(id -u)" = "0" ] || SUDO="sudo"
    $SUDO apt-get update -qq
    if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "redis-server=${REDIS_VERSION}" "redis-tools=${REDIS_VERSION}"; then
        echo "setup.d/35-redis: redis-server=${REDIS_VERSION} is not available; installing the current redis-server" >&2
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server
    fi
    # The package starts a system redis on port 6379; the tests run their own.
    $SUDO service redis-server stop >/dev/null 2>&1 || true
fi
export MCPDESC_REDIS_SERVER="$(command -v redis-server || echo /usr/bin/redis-server)"
