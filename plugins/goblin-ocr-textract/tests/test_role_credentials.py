"""A role's credentials, served by a container credentials endpoint, reach Textract when
``use_default_credentials`` allows boto3's own chain, and only then."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import ThrottlingProxy
from PIL import Image
from test_textract import DETECT, config, line, page_png

from goblin_ocr_textract.backend import TextractBackend


@pytest.fixture
def container_role(no_aws: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """An ECS-style credentials endpoint on 127.0.0.1; yields the paths it was asked for."""
    asked: list[str] = []

    class Endpoint(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def do_GET(self) -> None:
            asked.append(self.path)
            body = json.dumps({"AccessKeyId": "ROLEKEY", "SecretAccessKey": "rolesecret",
                               "Token": "roletoken",
                               "Expiration": "2099-01-01T00:00:00Z"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    monkeypatch.setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", f"http://{host!s}:{port}/role")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    yield asked
    server.shutdown()
    server.server_close()


def test_a_container_role_reads_the_page_when_the_sdk_chain_is_allowed(
        container_role: list[str], proxy: ThrottlingProxy,
        canned: Callable[..., None]) -> None:
    canned([line("Read with a role")])
    image = Image.open(io.BytesIO(page_png()))
    result = TextractBackend().recognize(image, "eng", config(proxy, use_default_credentials=True))
    assert result.text == "Read with a role"
    assert container_role == ["/role"] and proxy.seen[DETECT] == 1


def test_without_the_option_the_role_is_never_asked(container_role: list[str],
                                                    proxy: ThrottlingProxy) -> None:
    image = Image.open(io.BytesIO(page_png()))
    assert TextractBackend().recognize(image, "eng", config(proxy)).text == ""
    assert container_role == [] and proxy.seen[DETECT] == 0
