import ShopAPI
import XCTest

/// `ConnectionStringRedaction`: no text that passes through it repeats a `--db` value's password,
/// in any of the forms a message can quote it, nor the URI itself.
final class ConnectionStringRedactionTests: XCTestCase {
    private func redact(_ text: String, for value: String) -> String {
        ConnectionStringRedaction(connectionString: value).redact(text)
    }

    func test_userinfoPassword_isReplaced_verbatimAndPercentDecoded() {
        let value = "postgres://shop:s%40cret%2Fpw@db.example/shop"
        XCTAssertEqual(redact("a s%40cret%2Fpw b s@cret/pw c", for: value), "a [password] b [password] c")
    }

    func test_malformedPercentEncoding_isReplacedAsLibpqQuotesIt() {
        let value = "postgres://user:secret%zzpw@127.0.0.1:1/db"
        XCTAssertEqual(redact(#"invalid percent-encoded token: "secret%zzpw""#, for: value), #"invalid percent-encoded token: "[password]""#)
    }

    func test_wholeURI_isReplaced_alsoWithItsSchemeLowered() {
        let value = "POSTGRES://user:secretpw@[::1"
        for quoted in [value, "postgres://user:secretpw@[::1"] {
            XCTAssertEqual(redact(#"in URI: "\#(quoted)""#, for: value), #"in URI: "[the --db URI]""#)
        }
    }

    func test_partOfTheURI_quoted_losesItsPassword() {
        let value = "POSTGRES://u:secretpw@h/db?x=1"
        XCTAssertEqual(redact(#"invalid connection option "POSTGRES://u:secretpw@h/db?x""#, for: value),
                       #"invalid connection option "POSTGRES://u:[password]@h/db?x""#)
    }

    func test_passwordHoldingSlashOrAt_isStillFound() {
        for (value, password) in [("postgres://u:pa/ss@h/db", "pa/ss"), ("postgres://u:p@ss@h/db", "p@ss")] {
            XCTAssertFalse(redact("x \(password) y", for: value).contains(password), value)
        }
    }

    func test_passwordParameter_inAQueryOrAKeywordString_isReplaced() {
        XCTAssertEqual(redact("pw sec ret", for: "postgresql:///x?host=/tmp&password=sec%20ret&port=5"), "pw [password]")
        XCTAssertEqual(redact("was secretpw", for: "postgres://u@h/db?PASSWORD=secretpw"), "was [password]")
        XCTAssertEqual(redact("was it's", for: #"postgresql:///x?dbname=host=h\ password='it\'s'"#), "was [password]")
    }

    func test_sqlitePath_isLeftAsItIs() {
        let value = "/var/lib/shop/shop.sqlite"
        XCTAssertEqual(redact("cannot open /var/lib/shop/shop.sqlite: no such file", for: value), "cannot open /var/lib/shop/shop.sqlite: no such file")
    }

    func test_uriWithoutPassword_isStillNotRepeatedWhole() {
        let value = "postgresql://localhost:notaport/shop"
        XCTAssertEqual(redact(#"URI "postgresql://localhost:notaport/shop": invalid integer value "notaport""#, for: value),
                       #"URI "[the --db URI]": invalid integer value "notaport""#)
    }
}
