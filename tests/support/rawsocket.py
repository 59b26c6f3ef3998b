"""A websocket client on a bare TCP socket, for what well-behaved libraries never do: a tiny
receive buffer and never reading, a reset (RST) in the middle of a reply, a flood of frames."""

from __future__ import annotations

import base64
import os
import socket
import struct
from pathlib import Path

from tests.support.servers import RunningServer

#: The receive buffer a slow reader asks for: the kernel doubles it, still a few kilobytes.
SMALL_BUFFER = 4096


class RawSocket:
    """One websocket connection, opened with the handshake and nothing else."""

    def __init__(self, server: RunningServer, path: str, *, receive_buffer: int | None = None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:  # set before connecting: it sizes the TCP window
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(30)
        self.sock.connect(("127.0.0.1", server.port))
        self.server_port = server.port
        key = base64.b64encode(os.urandom(16)).decode()
        host = f"127.0.0.1:{server.port}"
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("the server closed the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"no upgrade: {head!r}")

    def send_text(self, text: str) -> None:
        """One masked text frame (clients must mask)."""
        payload = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        size = len(payload)
        if size < 126:
            header += bytes([0x80 | size])
        elif size < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", size)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def waiting_at_the_server(self) -> int:
        """Bytes the server's kernel holds for this connection, not yet taken by us (Linux:
        the send queue of the server's end in /proc/net/tcp)."""
        port = self.sock.getsockname()[1]
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = (int(end.split(":")[1], 16) for end in fields[1:3])
            if local == self.server_port and remote == port:
                return int(fields[4].split(":")[0], 16)
        return 0

    def reset(self) -> None:
        """Drop the connection with a TCP reset: no close frame, no FIN."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()

    def close(self) -> None:
        self.sock.close()
