import XCTest
@testable import RPCServer

/// Inputs FuzzFrameDecoder found (on the decoder before the one-decoder-per-framing rewrite) where
/// the chunking changed the events: an incomplete line was measured with its surrounding
/// whitespace, a complete one trimmed. protocol.md now fixes the rule ("an NDJSON line's size is
/// its bytes before the `\n`, not counting one `\r` just before it"); these pin that rule for every
/// chunking. Reproducer: FuzzTesting/Corpus/FuzzFrameDecoder/regression-ndjson-limit-counts-whitespace.
final class FrameDecoderFuzzRegressionTests: XCTestCase {
    func test_ndjsonLine_leadingBlanksCountTowardsTheLimit_inEveryChunking() {
        assertEveryChunking("  [12345]\n{}\n", framing: .ndjson, max: 9, gives: ["[12345]", "{}"])
        assertEveryChunking("   \t[12345]\n{}\n", framing: .ndjson, max: 9, gives: ["error:MessageTooLarge", "{}"])
        assertEveryChunking("{}\n   \t[12345]\r\n", framing: .ndjson, max: 9, gives: ["{}", "error:MessageTooLarge"])
    }

    func test_ndjsonBlankLine_longerThanTheLimit_isTooLarge_inEveryChunking() {
        assertEveryChunking("1\n\t\t\t\t  \r\n2\n", framing: .ndjson, max: 1, gives: ["1", "error:MessageTooLarge", "2"])
        assertEveryChunking("1\n\t\r\n2\n", framing: .ndjson, max: 1, gives: ["1", "2"])
    }

    func test_ndjsonFirstFind_oneByteAndABlankAtLimitOne_isTooLarge_inEveryChunking() {
        // The fuzzer's first find, verbatim: limit 1, stream B4 20 0A (auto-detected as NDJSON).
        assertEveryChunking([0xB4, 0x20, 0x0A], max: 1, gives: ["error:MessageTooLarge"])
    }
}
