"""The sync client's line readers, over real pipes."""

from __future__ import annotations

import os

import pytest

from shoprpc.line_reader import PollingLineReader, StreamLineReader, line_reader_for


def test_pollingReader_splitsChunksIntoLines_andEndsWithTheLastUnterminatedLine() -> None:
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb") as stream:
        reader = line_reader_for(stream)
        assert isinstance(reader, PollingLineReader)
        os.write(write_fd, b'{"a":1}\n\n{"b":')
        assert reader.read(None) == [b'{"a":1}']
        assert reader.read(0.01) == [], "nothing more within the timeout"
        os.write(write_fd, b'2}\r\n{"c":3}')
        assert reader.read(None) == [b'{"b":2}']
        os.close(write_fd)
        assert reader.read(None) == [b'{"c":3}'], "end of input: the last line without its newline"
        assert reader.read(None) is None


def test_pollingReader_afterItsStreamIsClosed_failsInsteadOfReadingAReusedDescriptor() -> None:
    read_fd, write_fd = os.pipe()
    stream = os.fdopen(read_fd, "rb")
    reader = PollingLineReader(stream, read_fd)
    stream.close()
    os.close(write_fd)
    other_read, other_write = os.pipe()  # the lowest free numbers: usually the ones just closed
    try:
        os.write(other_write, b'{"not":"yours"}\n')
        with pytest.raises(ValueError):
            reader.read(None)
    finally:
        os.close(other_read)
        os.close(other_write)


def test_streamWithoutDescriptor_getsAStreamReader() -> None:
    import io
    assert isinstance(line_reader_for(io.BytesIO(b"")), StreamLineReader)
