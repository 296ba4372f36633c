#!/bin/sh
# Writes the webhook signature test vectors under testdata/vectors/, one
# folder per vector. The signatures are computed here with openssl, not with
# our code, so that the Go tests check our signing against an outside
# implementation of HMAC-SHA256.
#
# Each folder holds the inputs (key, published-timestamp, body and, when the
# header is sent, call-ref) and the outputs:
#   message       the exact bytes signature-v2 signs: call-ref, body, timestamp
#   signature     base64 HMAC-SHA256 of the timestamp (the deprecated header)
#   signature-v2  base64 HMAC-SHA256 of message
#   body.sha256   hex SHA-256 of the body
#   headers       the request headers, as "bulkdesk webhook verify" reads them
#
# Run it from app/webhook: sh testdata/make-vectors.sh
set -eu

out=testdata/vectors
rm -rf "$out"
mkdir -p "$out"

# vector NAME KEY TIMESTAMP CALLREF|-  (the body comes on standard input;
# a call-ref of "-" means the header is not sent at all)
vector() {
	dir="$out/$1"
	mkdir -p "$dir"
	printf '%s' "$2" >"$dir/key"
	printf '%s' "$3" >"$dir/published-timestamp"
	cat >"$dir/body"
	ref=""
	if [ "$4" != "-" ]; then
		ref="$4"
		printf '%s' "$ref" >"$dir/call-ref"
	fi
	{ printf '%s' "$ref"; cat "$dir/body"; printf '%s' "$3"; } >"$dir/message"
	openssl dgst -sha256 -hmac "$2" -binary <"$dir/message" | base64 -w0 >"$dir/signature-v2"
	printf '%s' "$3" | openssl dgst -sha256 -hmac "$2" -binary | base64 -w0 >"$dir/signature"
	sha256sum <"$dir/body" | cut -d' ' -f1 | tr -d '\n' >"$dir/body.sha256"
	{
		[ "$4" != "-" ] && printf 'call-ref: %s\n' "$ref"
		printf 'published-timestamp: %s\n' "$3"
		printf 'signature: %s\n' "$(cat "$dir/signature")"
		printf 'signature-v2: %s\n' "$(cat "$dir/signature-v2")"
	} >"$dir/headers"
}

printf '{"bulkId":"118231498219765760","status":"COMPLETED","submittedItemsCount":2}' |
	vector basic 'sandbox-api-key-1' 1761909600000 'ref-0001'

# Non-ASCII characters, and trailing spaces, a tab and newlines that a
# receiver must not trim before checking the signature.
printf '{"eventType":"COMPLETED","note":"Zoë Ångström paid 12,50 € — naïve café ✓"}  \t\n\n' |
	vector non_ascii_trailing_whitespace 'sandbox-api-key-1' 1761909600123 'ref-ü-0002'

printf '{"eventType":"PENDING","transfer":{"id":{"type":"transfers","id":"1"}}}' |
	vector empty_call_ref 'sandbox-api-key-1' 1761909600000 ''

printf '{"eventType":"PENDING","transfer":{"id":{"type":"transfers","id":"2"}}}' |
	vector absent_call_ref 'sandbox-api-key-1' 1761909600000 -

long_ref=$(printf 'r%.0s' $(seq 1 250))-0255
printf '{"bulkId":"1","status":"FAILED"}' |
	vector call_ref_255 'sandbox-api-key-1' 1761909600000 "$long_ref"

printf '' |
	vector empty_body 'sandbox-api-key-1' 1761909600000 'ref-0003'

printf '{"bulkId":"42","status":"PARTIALLY_COMPLETED"}' |
	vector non_ascii_key 'clé-secrète-ключ' 1761909600000 'ref-0004'
