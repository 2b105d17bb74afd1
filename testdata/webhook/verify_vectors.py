"""Independent check of fourd's webhook signature scheme with Python's
standard library only (hmac, hashlib, json). Usage:

    python3 verify_vectors.py [vectors.json]

For every vector it computes "sha256=" + hex HMAC-SHA256(secret,
"<timestamp>.<body>"), compares it with the expected signature, and runs the
receiver's verification routine (timestamp tolerance of 300 s, constant-time
compare) on the vector and on tampered copies. It exits 1 on any mismatch.
"""

import hashlib
import hmac
import json
import os
import re
import sys

TOLERANCE_SECONDS = 300


def sign(secret: bytes, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret, timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def verify(secret: bytes, header: str, timestamp: str, body: bytes, now: int):
    """The routine a receiver runs; returns None when the request is valid."""
    if not re.fullmatch(r"[0-9]{1,18}", timestamp):
        return "invalid timestamp"
    if abs(now - int(timestamp)) > TOLERANCE_SECONDS:
        return "timestamp outside tolerance"
    # compare_digest is constant-time and false for unequal lengths.
    if not hmac.compare_digest(sign(secret, timestamp, body).encode(), header.encode()):
        return "signature mismatch"
    return None


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "signature-vectors.json")
    with open(path, encoding="utf-8") as f:
        vectors = json.load(f)["vectors"]
    failed = 0
    for v in vectors:
        secret, body, ts = v["secret"].encode(), v["body"].encode(), str(v["timestamp"])
        got = sign(secret, ts, body)
        checks = [
            (got == v["signature"], f"sign: got {got}, want {v['signature']}"),
            (verify(secret, v["signature"], ts, body, v["timestamp"] - 299) is None,
             "verify rejected a valid signature"),
            (verify(secret, v["signature"], ts, body + b" ", v["timestamp"]) is not None,
             "verify accepted a tampered body"),
            (verify(secret + b"x", v["signature"], ts, body, v["timestamp"]) is not None,
             "verify accepted a wrong secret"),
            (verify(secret, v["signature"], ts, body, v["timestamp"] - 301) is not None,
             "verify accepted a future timestamp"),
        ]
        for ok, msg in checks:
            if not ok:
                print(f"FAIL {v['name']}: {msg}", file=sys.stderr)
                failed += 1
    if failed:
        return 1
    print(f"ok {len(vectors)} vectors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
