import Foundation
import Testing

@testable import FeedEngine

/// How a transfer reads the header lines libcurl hands it.
@Suite("Fetch: response header lines")
struct CurlHeaderLineTests {
    func headers(_ lines: [String]) -> [String: String] {
        let state = CurlTransferState(limit: 0)
        for line in lines {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { state.receiveHeaderLine(UnsafeRawBufferPointer($0)) }
        }
        return state.headers
    }

    @Test func aNameIsKeptInLowerCaseAndItsValueWithoutTheSpacesAroundIt() {
        #expect(
            headers(["HTTP/1.1 200 OK\r\n", "ETag:  \t\"v1\" \r\n", "Content-Type:application/json\r\n"]) == [
                "etag": "\"v1\"", "content-type": "application/json",
            ])
    }

    @Test func aValueKeepsItsColonsAndInnerSpaces() {
        #expect(
            headers(["Link: <https://api/x?page=2>; rel=\"next\"\r\n"]) == [
                "link": "<https://api/x?page=2>; rel=\"next\""
            ])
    }

    @Test func anEmptyValueIsKept() {
        #expect(headers(["X-Empty:\r\n"]) == ["x-empty": ""])
    }

    @Test func aValueInUTF8IsKept() {
        #expect(
            headers(["Content-Disposition: attachment; filename=\"café.json\"\r\n"]) == [
                "content-disposition": "attachment; filename=\"café.json\""
            ])
    }

    @Test func aStatusLineStartsAHopAnew() {
        #expect(
            headers(["HTTP/1.1 301 Moved\r\n", "Location: /b\r\n", "HTTP/1.1 200 OK\r\n", "ETag: b\r\n"]) == [
                "etag": "b"
            ])
    }

    @Test func aLineWithoutANameOrColonIsIgnored() {
        #expect(headers(["\r\n", ": value\r\n", "no colon here\r\n"]).isEmpty)
    }
}
