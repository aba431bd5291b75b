#!/usr/bin/env bash
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# Regenerates the pictures of docs/screenshots/ (window.png, timeline.png and the others below):
# starts the emulators on their well-known ports, applies the sample manifests to a fresh workspace and waits until every
# resource is Ready, then opens the window under Xvfb at a fixed size and lets it save a picture
# of itself (CONVERGE_SCREENSHOT, see app/main.cpp). Builds nothing: build first (scripts/dev.sh
# build).
#
# Environment: BUILD_DIR (default build), OUT (default docs/screenshots/window.png), SIZE (default
# 1280x800), DELAY (seconds the window runs before the picture, default 5), SCREENSHOT_LOCALE
# (default C.UTF-8; e.g. de_DE.UTF-8 for the German window).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
out=${OUT:-docs/screenshots/window.png}
converge="$build_dir/bin/converge"

if [ ! -x "$converge" ]; then
    echo "screenshots: $converge is missing; build first (scripts/dev.sh build)" >&2
    exit 2
fi
for tool in node xvfb-run; do
    if ! command -v "$tool" >/dev/null; then
        echo "screenshots: $tool is missing (scripts/install-deps.sh)" >&2
        exit 2
    fi
done

# Everything the run writes (the emulators' data, the workspace, the window's settings) lives in
# a temporary folder, so that neither the user's settings nor earlier runs change the picture.
state=$(mktemp -d)
cleanup() {
    node tests/fixtures/emulators.js stop --state "$state/emulators" >/dev/null 2>&1 || true
    rm -rf "$state"
}
trap cleanup EXIT
export XDG_CONFIG_HOME="$state/config" XDG_DATA_HOME="$state/data" XDG_CACHE_HOME="$state/cache"
export XDG_STATE_HOME="$state/state"
export LC_ALL=${SCREENSHOT_LOCALE:-C.UTF-8}
export CONVERGE_SAMPLE_DB_PASSWORD=${CONVERGE_SAMPLE_DB_PASSWORD:-sample-password-not-a-secret}
unset LANGUAGE

# The samples name the well-known ports (Azurite 10000-10002, dynalite 8000): they must be free.
node tests/fixtures/emulators.js start --state "$state/emulators" --fixed-ports
workspace="$state/sample.converge"
"$converge" apply --workspace "$workspace" -f resources/samples/local-emulators --wait=2m

# Blobs another tool wrote (the SDK from the npm lockfile): the window shows them greyed, in
# folders, under the container it opens by name.
node -e "
const {BlobServiceClient} = require('@azure/storage-blob');
const c = BlobServiceClient.fromConnectionString('UseDevelopmentStorage=true')
    .getContainerClient('invoices');
(async () => {
    for (const n of ['2026/01/inv-0001.json', '2026/01/inv-0002.json', '2026/02/inv-0003.json',
                     'archive/2025.zip', 'index.json'])
        await c.getBlockBlobClient(n).upload('{}', 2);
})().catch(e => { console.error(e.message); process.exit(1); });"

# Objects another tool wrote into the sample's bucket (plain PUTs: moto checks no signature by
# default): the window shows them greyed, in folders, beside the declared one.
node -e "
(async () => {
    for (const k of ['2026/01/inv-0001.pdf', '2026/01/inv-0002.pdf', '2026/02/inv-0003.pdf',
                     'drafts/inv-0004.pdf', 'README.txt'])
        await fetch('http://127.0.0.1:5000/order-invoices/' + k, {method: 'PUT', body: 'pdf'});
})().catch(e => { console.error(e.message); process.exit(1); });"

# shoot PICTURE [VARIABLE=VALUE...]: the window over the workspace, saved to PICTURE.
shoot() {
    local picture=$1
    shift
    rm -f "$picture"
    env CONVERGE_SCREENSHOT="$(realpath -m "$picture")" CONVERGE_SCREENSHOT_SIZE="${SIZE:-1280x800}" \
        CONVERGE_SCREENSHOT_DELAY="${DELAY:-5}" "$@" \
        xvfb-run -a -s "-screen 0 1600x1000x24" "$converge" "$workspace"
    [ -s "$picture" ] || { echo "screenshots: the window saved no picture to $picture" >&2; exit 1; }
    echo "screenshots: wrote $picture"
}

mkdir -p "$(dirname "$out")"
shoot "$out" CONVERGE_SCREENSHOT_OPEN="${OPEN:-BlobContainer/invoices}"

# The Timeline of the same container after three refreshes that found nothing to do. Each
# `converge refresh` starts a controller of its own, whose start-up pass leaves a quiet run
# before the refresh's: the rows alternate, and the start-up passes that follow one another fold
# into one (Done ×N).
for _ in 1 2 3; do
    "$converge" refresh --workspace "$workspace" BlobContainer/invoices --wait=1m >/dev/null
done
shoot "${TIMELINE_OUT:-$(dirname "$out")/timeline.png}" \
    CONVERGE_SCREENSHOT_OPEN=BlobContainer/invoices CONVERGE_SCREENSHOT_TAB=Timeline

# The AWS services declared from their models, on moto: a subscription whose topicRef names the
# sample's topic, beside the queue, the secret given by reference and the log group.
shoot "$(dirname "$out")/aws-kinds.png" \
    CONVERGE_SCREENSHOT_OPEN=SNSSubscription/order-events-hear-notifications

# A bucket opened like a folder tree: the declared object under templates/, the others greyed.
shoot "$(dirname "$out")/s3-objects.png" CONVERGE_SCREENSHOT_OPEN=S3Object/invoice-template

# A Lambda function from a folder of the checkout: its role by reference, a secret of its
# environment by reference, its state and CodeSha256 in the details.
shoot "$(dirname "$out")/lambda-function.png" CONVERGE_SCREENSHOT_OPEN=LambdaFunction/invoice-mailer

# Google Cloud on its emulators: the project, Pub/Sub's topic and subscription, and a Spanner
# database whose instanceRef names the instance, its statements applied and the schema Spanner
# answers in the details; all declared from Google's model.
shoot "$(dirname "$out")/google-cloud.png" \
    CONVERGE_SCREENSHOT_OPEN=SpannerDatabase/orders-db

# A table's events: the messages wrap in the pane rather than run past its edge.
shoot "$(dirname "$out")/events.png" CONVERGE_SCREENSHOT_OPEN=DynamoDBTable/orders \
    CONVERGE_SCREENSHOT_TAB=Events

# Nothing selected: the details say so. An unsaved edit: the tree marks the container.
shoot "$(dirname "$out")/details-empty.png"
shoot "$(dirname "$out")/spec-draft.png" CONVERGE_SCREENSHOT_OPEN=BlobContainer/invoices \
    CONVERGE_SCREENSHOT_EDIT="# reviewed with the team on Monday"

# A folder of 8,000 objects another tool wrote, opened at one far down by its URL: the view is
# given a window of 5,000 rows around it (RowPagingProxy), and scrolls as any list does.
node -e "
(async () => {
    const keys = Array.from({length: 8000}, (_, i) => 'logs/app-' + String(i).padStart(5, '0') + '.log');
    for (let i = 0; i < keys.length; i += 8)
        await Promise.all(keys.slice(i, i + 8).map((k) =>
            fetch('http://127.0.0.1:5000/order-invoices/' + k, {method: 'PUT', body: 'log'})));
})().catch(e => { console.error(e.message); process.exit(1); });"
# A second account on the endpoint the sample's local-aws uses for DynamoDB, in a workspace of
# its own (the sample's table and that account): its listing shows Orders as managed by
# DynamoDBTable/orders, not as unmanaged.
second="$state/two-accounts.converge"
printf '%s\n' 'apiVersion: aws.converge.dev/v1' 'kind: AwsAccount' 'metadata: {name: local-aws-2}' \
    'spec: {region: us-east-1, endpoint: "http://127.0.0.1:5000",' \
    '  endpoints: {dynamodb: "http://127.0.0.1:8000"}, credential: {emulator: true}}' \
    >"$state/second-account.yaml"
"$converge" apply --workspace "$second" -f resources/samples/local-emulators/dynamodb.yaml \
    -f "$state/second-account.yaml" --wait=1m
"$converge" refresh --workspace "$second" awsaccount/local-aws awsaccount/local-aws-2 --wait=1m
(workspace=$second
 shoot "$(dirname "$out")/managed-elsewhere.png" CONVERGE_SCREENSHOT_OPEN=AwsAccount/local-aws-2)

DELAY=10 shoot "$(dirname "$out")/s3-large-folder.png" \
    CONVERGE_SCREENSHOT_OPEN=s3://order-invoices/logs/app-07500.log

# A large upload under way (a 1 GiB file of zeros to the sample's moto): its progress in the
# details' heading and in the condition, a step of parts at a time. Last, as it adds to the
# workspace.
truncate -s 1G "$state/orders.dump"
cat > "$state/upload.yaml" <<MANIFEST
apiVersion: aws.converge.dev/v1
kind: S3Bucket
metadata: {name: nightly-backups}
spec: {owner: {name: local-aws}, name: nightly-backups}
---
apiVersion: aws.converge.dev/v1
kind: S3Object
metadata: {name: orders-db-dump}
spec:
  owner: {name: nightly-backups}
  key: 2026/12/04/orders.dump
  contentFile: $state/orders.dump
MANIFEST
"$converge" apply --workspace "$workspace" -f "$state/upload.yaml" >/dev/null
DELAY=12 shoot "$(dirname "$out")/s3-upload-progress.png" \
    CONVERGE_SCREENSHOT_OPEN=S3Object/orders-db-dump CONVERGE_SCREENSHOT_TAB=Conditions
