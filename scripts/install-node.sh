#!/usr/bin/env bash
# install-node.sh — installs the Node.js the course pins, from the official
# release archive, checked against its sha256, for the npm packages that
# make test runs (tests/browser's playwright-core needs Node.js 20 or later;
# Debian 12's nodejs is 18). It is the Node.js this project's machines run,
# so CI and the machines agree; cmd/node-engines checks every pinned npm
# package's engines.node range against it (make test, and its test against
# .github/workflows/ci.yml).
#
# Usage: scripts/install-node.sh [PREFIX]
#   PREFIX  where to install (default /usr/local as root, else ~/.local): the
#           release goes into PREFIX/lib/nodejs/node-vVERSION-linux-ARCH and
#           node, npm, npx into PREFIX/bin. Idempotent: a second run checks
#           and changes nothing.
#
# Linux x86_64 and aarch64 only; elsewhere install Node.js 20 or later from
# your package manager.
set -euo pipefail

NODE_VERSION=20.20.2
# SHASUMS256.txt of the release (https://nodejs.org/dist/v20.20.2/), the
# .tar.gz archives.
NODE_SHA256_X64=19e56f0825510207dd904f087fe52faa0a4eb6b2aab5f0ea7a33830d04888b8b
NODE_SHA256_ARM64=47ef73d543ecf6eb19435f6c03a0ac4809b3bf0dd6b26c7c571efc2a6572a74d
NODE_DIST=${NODE_DIST:-https://nodejs.org/dist}

say() { printf 'install-node: %s\n' "$*"; }
die() {
	printf 'install-node: %s\n' "$*" >&2
	exit 1
}

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) arch=x64 sum=$NODE_SHA256_X64 ;;
Linux/aarch64 | Linux/arm64) arch=arm64 sum=$NODE_SHA256_ARM64 ;;
*) die "no pinned Node.js archive for $(uname -s)/$(uname -m): install Node.js 20 or later with your package manager" ;;
esac
if [ $# -gt 0 ]; then
	prefix=$1
elif [ "$(id -u)" = 0 ]; then
	prefix=/usr/local
else
	prefix=$HOME/.local
fi
name=node-v$NODE_VERSION-linux-$arch
home=$prefix/lib/nodejs/$name

if [ -x "$home/bin/node" ] && [ "$("$home/bin/node" --version)" = "v$NODE_VERSION" ] &&
	[ "$(readlink "$prefix/bin/node")" = "$home/bin/node" ]; then
	say "ok    Node.js v$NODE_VERSION in $home"
else
	command -v curl >/dev/null 2>&1 || die "needs curl"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	say "downloading $NODE_DIST/v$NODE_VERSION/$name.tar.gz"
	curl -fsSL --retry 3 -o "$tmp/node.tar.gz" "$NODE_DIST/v$NODE_VERSION/$name.tar.gz"
	echo "$sum  $tmp/node.tar.gz" | sha256sum -c --quiet - ||
		die "$name.tar.gz: sha256 $(sha256sum "$tmp/node.tar.gz" | cut -c1-64), want $sum: not the pinned release; nothing installed"
	mkdir -p "$prefix/lib/nodejs" "$prefix/bin"
	rm -rf "$home.new"
	mkdir "$home.new"
	tar -xzf "$tmp/node.tar.gz" -C "$home.new" --strip-components=1 --no-same-owner
	rm -rf "$home"
	mv "$home.new" "$home"
	for b in node npm npx; do
		ln -sfn "$home/bin/$b" "$prefix/bin/$b"
	done
	say "installed Node.js v$NODE_VERSION into $home (node, npm, npx linked in $prefix/bin)"
fi
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) say "note  $prefix/bin is not on PATH: add it (export PATH=$prefix/bin:\$PATH)" ;;
esac
