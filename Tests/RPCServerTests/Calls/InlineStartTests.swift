import Dispatch
import Foundation
import XCTest
@testable import RPCServer

/// `InlineStart` is a one-shot permission of one thread for one closure; and a reply settled on
/// the reader's thread during its burst (a call started inline) waits for the burst's end.
final class InlineStartTests: XCTestCase {
    func test_inlineStart_takenOnceInsideTheGrant_neverOutside() {
        XCTAssertFalse(InlineStart.take())
        InlineStart.granting {
            XCTAssertTrue(InlineStart.take())
            XCTAssertFalse(InlineStart.take(), "taking withdraws it")
        }
        InlineStart.granting {}
        XCTAssertFalse(InlineStart.take(), "withdrawn at the end of the grant even if not taken")
    }

    func test_inlineStart_grantedOnOneThread_isNotSeenOnAnother() {
        let seenElsewhere = expectation(description: "checked on another thread")
        InlineStart.granting {
            DispatchQueue.global().async {
                XCTAssertFalse(InlineStart.take())
                seenElsewhere.fulfill()
            }
            wait(for: [seenElsewhere], timeout: 10)  // hang guard only
            XCTAssertTrue(InlineStart.take(), "still held by the granting thread")
        }
    }

    func test_readerBurst_submitWritingIfIdleOnTheBurstThread_isHeldUntilTheBurstEnds() throws {
        let output = TemporaryOutputFile(prefix: "inline")
        defer { output.remove() }
        let writer = output.makeWriter()
        writer.beginReaderBurst()
        writer.submit(Array(#"{"id":1}"#.utf8))
        XCTAssertNil(writer.submitWritingIfIdle(Array(#"{"id":2}"#.utf8)), "held, not handed to the caller")
        writer.queue.sync {}  // a flush, had one been scheduled, would have run by now
        XCTAssertEqual(try output.text(), "")
        writer.endReaderBurst(writeIfIdle: true)
        XCTAssertEqual(try output.text(), "{\"id\":1}\n{\"id\":2}\n")
    }
}
