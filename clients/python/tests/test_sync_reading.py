"""Who reads ShopClient's replies: a waiting caller reads for itself while nobody else reads, another
caller meanwhile waits for its own reply, and the background thread takes over when the reader leaves
with calls in flight. Each test first puts the client in the state it is about (it waits for that
state, never for time to pass), against a scripted peer."""

from __future__ import annotations

import faulthandler
import io
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Tuple

import pytest

from support import PROMPT, FakePeer
from shoprpc import ClientDeadlineExceededError, ConnectionLostError, ShopClient
from shoprpc import reply_reader


@pytest.fixture(autouse=True)
def no_idle_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The background thread watches an idle client only after IDLE_WATCH_DELAY without calls; an hour
    keeps it out of these tests once the first call is answered, whatever the machine's speed."""
    monkeypatch.setattr(reply_reader, "IDLE_WATCH_DELAY", 3600.0)


def reply(request: Dict[str, Any], result: Any) -> Dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request["id"], "result": result}


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PROMPT
    while not condition():
        assert time.monotonic() < deadline, f"not within {PROMPT} s: {what}"
        time.sleep(0.001)


class Caller:
    """A thread making one call; its outcome (result or exception) and its thread id are kept."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.outcome: Dict[str, Any] = {}
        self.thread = threading.Thread(target=self._run, args=(call,), daemon=True)
        self.thread.start()

    def _run(self, call: Callable[[], Any]) -> None:
        try:
            self.outcome["result"] = call()
        except BaseException as error:  # noqa: BLE001 - the tests assert on it
            self.outcome["error"] = error

    def result(self) -> Any:
        self.thread.join(PROMPT)
        if self.thread.is_alive():  # show where every thread is, for the failure below
            faulthandler.dump_traceback(sys.stderr)
        assert not self.thread.is_alive(), "the call did not return"
        if "error" in self.outcome:
            raise self.outcome["error"]
        return self.outcome["result"]


def answered_once(client: ShopClient, peer: FakePeer) -> None:
    """One call answered: the background thread, which reads a fresh client's output, hands it over."""
    first = Caller(lambda: client.call("first"))
    peer.send(reply(peer.receive(), "first"))
    assert first.result() == "first"
    wait_until(lambda: client._reader._owner is None, "the background thread gave up the output")


def leading(client: ShopClient, caller: Caller) -> Callable[[], bool]:
    return lambda: client._reader._owner == caller.thread.ident


def a_reads_while_b_waits(client: ShopClient, peer: FakePeer, a_call: Callable[[], Any],
                          b_call: Callable[[], Any]) -> Tuple[Caller, Dict[str, Any], Caller, Dict[str, Any]]:
    """Caller a reads the output for itself; then caller b's request is sent (b waits, or is about to)."""
    answered_once(client, peer)
    a = Caller(a_call)
    request_a = peer.receive()
    wait_until(leading(client, a), "a reads")
    b = Caller(b_call)
    return a, request_a, b, peer.receive()


def test_loneCaller_readsItsOwnReply_onItsOwnThread(peer: FakePeer) -> None:
    seen: List[int] = []
    with ShopClient.attach(*peer.client_streams(),
                           on_notification=lambda method, params: seen.append(threading.get_ident())) as client:
        answered_once(client, peer)
        a = Caller(lambda: client.call("a"))
        request = peer.receive()
        wait_until(leading(client, a), "the caller reads for itself")
        peer.send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"n": 1}})
        peer.send(reply(request, "A"))
        assert a.result() == "A"
        assert seen == [a.thread.ident], "the notification was routed by the reading caller, before its reply"


def test_replyForAnotherCaller_whileOneReads_reachesThatCaller(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams()) as client:
        a, request_a, b, request_b = a_reads_while_b_waits(client, peer, lambda: client.call("a"),
                                                           lambda: client.call("b"))
        peer.send(reply(request_b, "B"))  # read by a's thread
        assert b.result() == "B"
        assert a.thread.is_alive(), "a still waits for its own reply"
        peer.send(reply(request_a, "A"))
        assert a.result() == "A"


def test_notificationBetweenReplies_isDeliveredInOrder(peer: FakePeer) -> None:
    events: List[Any] = []
    with ShopClient.attach(*peer.client_streams(),
                           on_notification=lambda method, params: events.append(params["n"])) as client:
        a, request_a, b, request_b = a_reads_while_b_waits(client, peer, lambda: client.call("a"),
                                                           lambda: client.call("b"))
        peer.send(reply(request_b, "B"))
        peer.send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"n": 1}})
        peer.send(reply(request_a, "A"))
        assert (a.result(), b.result()) == ("A", "B")
        assert events == [1]


def test_timeout_whileAnotherThreadReads_failsLocally_andTheReaderCarriesOn(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams(), timeout_margin=0.05) as client:
        a, request_a, b, request_b = a_reads_while_b_waits(client, peer, lambda: client.call("a"),
                                                           lambda: client.call("b", {}, timeout=0.1))
        with pytest.raises(ClientDeadlineExceededError):
            b.result()
        assert peer.receive() == {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": request_b["id"]}}
        peer.send({"jsonrpc": "2.0", "id": request_b["id"],
                   "error": {"code": -32800, "message": "cancelled", "data": {"type": "Cancelled"}}})  # dropped
        peer.send(reply(request_a, "A"))
        assert a.result() == "A"


def test_timeout_ofTheReadingCaller_handsTheOutputOn(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams(), timeout_margin=0.05) as client:
        a, request_a, b, request_b = a_reads_while_b_waits(client, peer, lambda: client.call("a", {}, timeout=0.1),
                                                           lambda: client.call("b"))
        with pytest.raises(ClientDeadlineExceededError):
            a.result()
        assert peer.receive()["params"] == {"id": request_a["id"]}, "a's $/cancelRequest"
        peer.send(reply(request_b, "B"))  # read by b itself or by the background thread
        assert b.result() == "B"


def test_serverEndsOutput_whileAThreadReads_failsEveryCaller(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams()) as client:
        answered_once(client, peer)
        a = Caller(lambda: client.call("a"))
        peer.receive()
        wait_until(leading(client, a), "a reads")
        b = Caller(lambda: client.call("b"))
        peer.receive()
        pending = client.call_async("c")
        peer.receive()
        peer.end()
        for caller in (a, b):
            with pytest.raises(ConnectionLostError):
                caller.result()
        assert isinstance(pending.exception(PROMPT), ConnectionLostError)
        with pytest.raises(ConnectionLostError):
            client.call("d")


def test_callAsync_withNobodyWaiting_isReadByTheBackgroundThread(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams()) as client:
        answered_once(client, peer)
        pending = client.call_async("a")
        peer.send(reply(peer.receive(), "A"))
        assert pending.future.result(PROMPT) == "A", "completed with no thread in result()"


def test_callbackCallingItsClient_raisesInsteadOfWaitingForItself(peer: FakePeer) -> None:
    errors: List[BaseException] = []

    def on_notification(method: str, params: Any) -> None:
        try:
            client.ping()
        except RuntimeError as error:
            errors.append(error)

    with ShopClient.attach(*peer.client_streams(), on_notification=on_notification) as client:
        answered_once(client, peer)
        a = Caller(lambda: client.call("a"))
        request = peer.receive()
        wait_until(leading(client, a), "a reads")
        peer.send({"jsonrpc": "2.0", "method": "notifications/message"})
        peer.send(reply(request, "A"))
        assert a.result() == "A"
        assert len(errors) == 1 and "callback" in str(errors[0])


class _NoDescriptor(io.RawIOBase):
    """A readable stream without a file descriptor."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._inner.read1(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def test_streamWithoutDescriptor_isReadByTheBackgroundThread_andTimeoutsHold(peer: FakePeer) -> None:
    reader, writer = peer.client_streams()
    with ShopClient.attach(io.BufferedReader(_NoDescriptor(reader)), writer, timeout_margin=0.05) as client:
        a = Caller(lambda: client.call("a"))
        peer.send(reply(peer.receive(), "A"))
        assert a.result() == "A"
        with pytest.raises(ClientDeadlineExceededError):
            client.call("slow", {}, timeout=0.1)


def test_close_attached_waitsForABlockingCallInFlight(peer: FakePeer) -> None:
    client = ShopClient.attach(*peer.client_streams())
    answered_once(client, peer)
    a = Caller(lambda: client.call("a"))
    request = peer.receive()
    wait_until(leading(client, a), "a reads")
    closing = Caller(client.close)
    peer.send(reply(request, "A"))
    assert a.result() == "A"
    assert closing.result() is None
