"""A moto server on 127.0.0.1 with a throttling proxy in front, and a clean AWS environment.

boto3 talks real HTTP to the proxy; the proxy answers ThrottlingException a
set number of times per operation, then relays to moto, and counts every
request it saw so tests can assert retries from the wire.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

moto_server = pytest.importorskip("moto.server")

_HOP_HEADERS = frozenset({"host", "connection", "transfer-encoding", "content-length",
                          "keep-alive"})


class ThrottlingProxy:
    """Relays HTTP to ``upstream``; answers ThrottlingException ``throttle[op]`` times first."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.seen: Counter[str] = Counter()
        #: each request's operation and body, in the order they came
        self.requests: list[tuple[str, bytes]] = []
        self.throttle: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def reset(self) -> None:
        with self._lock:
            self.seen.clear()
            self.throttle.clear()
            self.requests.clear()

    def take(self, operation: str, body: bytes = b"") -> bool:
        """Count a request; True when it must be throttled."""
        with self._lock:
            self.seen[operation] += 1
            self.requests.append((operation, body))
            if self.throttle[operation] > 0:
                self.throttle[operation] -= 1
                return True
            return False


def _handler(proxy: ThrottlingProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            return

        def _relay(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            operation = self.headers.get("X-Amz-Target") or f"S3.{self.command}"
            if proxy.take(operation, body):
                self._throttled()
                return
            upstream = http.client.HTTPConnection(*proxy.upstream, timeout=30)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_HEADERS}
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
            self.send_response(answer.status)
            for key, value in answer.getheaders():
                if key.lower() not in _HOP_HEADERS:
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
            upstream.close()

        def _throttled(self) -> None:
            data = json.dumps({"__type": "ThrottlingException",
                               "message": "Rate exceeded"}).encode()
            self.send_response(400)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _relay

    return Handler


@pytest.fixture(scope="session")
def moto() -> Iterator[tuple[str, int]]:
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    yield server.get_host_and_port()
    server.stop()


@pytest.fixture(scope="session")
def _proxy(moto: tuple[str, int]) -> Iterator[ThrottlingProxy]:
    proxy = ThrottlingProxy(moto)
    proxy.start()
    yield proxy
    proxy.stop()


@pytest.fixture
def proxy(_proxy: ThrottlingProxy) -> ThrottlingProxy:
    _proxy.reset()
    return _proxy


@pytest.fixture
def no_aws(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An environment with no AWS credentials anywhere and metadata lookups off."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                 "AWS_REGION", "AWS_DEFAULT_REGION", "GOBLIN_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws-credentials"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws-config"))
    return tmp_path


@pytest.fixture
def aws(no_aws: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Test credentials in the environment, as a user with Textract access has."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    return no_aws


@pytest.fixture
def canned(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[dict[str, Any]]], None]:
    """Set the blocks moto's Textract answers with."""
    import moto.textract.models as moto_textract

    def set_blocks(blocks: list[dict[str, Any]]) -> None:
        monkeypatch.setattr(moto_textract.TextractBackend, "BLOCKS", blocks)
    return set_blocks
