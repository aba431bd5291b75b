#!/usr/bin/env bash
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# Brings a Debian 12 machine what Converge needs to build, test and run: Debian packages and the
# npm emulators pinned by package-lock.json. Idempotent; a few seconds when everything is there.
# moto (the AWS emulator) is Python's and Google's Pub/Sub and Spanner emulators come with the
# Google Cloud CLI (from Google's own apt repository): they are only looked for, never installed;
# without them the tests that need them skip, and say so.
set -euo pipefail
cd "$(dirname "$0")/.."

# libssl-dev: OpenSSL's libcrypto signs a Google service account's token request (RS256), which
# Qt has no primitive for.
packages=(
    cmake ninja-build g++ lld pkg-config git
    qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite qt6-svg-dev qt6-tools-dev qt6-l10n-tools
    qt6-translations-l10n
    libgl-dev libyaml-cpp-dev qtkeychain-qt6-dev
    clang-format openssl
    libssl-dev
    xvfb xauth
    clang-14 libclang-rt-14-dev llvm-14
    desktop-file-utils appstream libxml2-utils man-db
    python3-jsonschema python3-yaml
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    missing+=(nodejs npm)
fi

if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when the lockfile changed since the last install.
stamp=node_modules/.converge-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "install-deps: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want" >"$stamp"
fi

# Where the test fixture will find moto_server (MOTO_SERVER, PATH, pyenv), or why it will not.
# Informational only: pip's Python is the user's to choose.
node tests/fixtures/emulators.js find-moto | sed 's/^/install-deps: /' || true

# Where the fixture will find Google's emulators (the Cloud SDK's root, from gcloud's path or
# `gcloud info`; Java 17 for Pub/Sub), or which packages provide them. Informational only: they
# come from Google's apt repository, which is the user's to add.
node tests/fixtures/emulators.js find-gcp | sed 's/^/install-deps: /' || true
