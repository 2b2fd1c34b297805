import CCurl
import FeedKit
import Foundation

/// One libcurl easy handle, reused from transfer to transfer; connections are kept alive in the
/// handle's ``CurlShare`` (or in the handle itself, without one).
///
/// Not thread-safe: it belongs to one worker thread of ``CurlHTTPClient`` for its whole life.
final class CurlEasyHandle {
    private let handle: UnsafeMutableRawPointer
    /// Where libcurl writes its detailed error message (`CURLOPT_ERRORBUFFER`).
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The connections, DNS cache and TLS sessions the handle shares with the client's others;
    /// kept until the handle is cleaned up.
    private let share: CurlShare?

    /// - Returns: `nil` when libcurl cannot be initialized or gives no handle.
    init?(share: CurlShare? = nil) {
        guard CurlGlobal.isInitialized, let handle = fw_curl_easy_init() else { return nil }
        self.handle = handle
        self.share = share
        // `curl_easy_reset` keeps a handle's share, so this holds for every transfer. Refused,
        // the handle keeps connections of its own, as it would without a share.
        _ = share?.attach(handle)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        fw_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Runs `request` to completion on the calling thread, following its redirects as its
    /// ``HTTPRequest/redirects`` policy says: one hop at a time, within the request's timeout
    /// and ``HTTPRequest/maxRedirects``, leaving the credentials out of a hop to another host.
    func perform(_ request: HTTPRequest, cancellation: CurlCancellation = CurlCancellation())
        -> Result<HTTPResponse, HTTPClientError>
    {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(request.timeout.milliseconds)
        var hop = request
        var redirects = 0
        var received = 0
        while true {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return .failure(HTTPClientError(.timeout)) }
            hop.timeout = .milliseconds(max(1, Int64(remaining / .milliseconds(1))))
            let (outcome, location) = performHop(hop, cancellation: cancellation)
            guard case .success(var response) = outcome else {
                return outcome.mapError { error in
                    var error = error
                    error.url = hop.url
                    return error
                }
            }
            received += response.bytesReceived
            response.bytesReceived = received
            guard let location, [301, 302, 303, 307, 308].contains(response.status) else { return .success(response) }
            func refuse(_ reason: String) -> Result<HTTPResponse, HTTPClientError> {
                .failure(HTTPClientError(.redirectRefused(to: location, reason: reason)))
            }
            guard request.redirects != .never else { return refuse("follow_redirects is never") }
            guard let scheme = URLComponents(string: location)?.scheme?.lowercased(),
                ["http", "https"].contains(scheme)
            else { return refuse("only http and https URLs are followed") }
            redirects += 1
            guard redirects <= request.maxRedirects else { return .failure(HTTPClientError(.tooManyRedirects)) }
            if !RedirectPolicy.isSameHost(hop.url, location) {
                guard request.redirects != .sameHost else {
                    return refuse("it leads to another host, and follow_redirects is same_host")
                }
                guard request.redactor.redact(location) == location else {
                    return refuse("it leads to another host with a secret in its URL")
                }
                let credentials = request.credentialHeaders
                hop.headers.removeAll { credentials.contains($0.name.lowercased()) }
            }
            hop.url = location
            // 303, and 301 or 302 after a POST, turn the request into a GET without a body, as
            // browsers and libcurl do; 307 and 308 repeat it as it was.
            if response.status == 303 || (hop.method.uppercased() == "POST" && response.status <= 302) {
                if hop.method.uppercased() != "HEAD" { hop.method = "GET" }
                hop.body = nil
            }
        }
    }

    /// Runs one exchange of `request`, following no redirect: the response, and the absolute
    /// URL its `Location` names, if any.
    private func performHop(_ request: HTTPRequest, cancellation: CurlCancellation)
        -> (Result<HTTPResponse, HTTPClientError>, location: String?)
    {
        // Reset forgets the previous request's options but keeps live connections and caches.
        fw_curl_easy_reset(handle)
        errorBuffer[0] = 0
        if cancellation.isCancelled { return (.failure(HTTPClientError(.cancelled)), nil) }
        let state = CurlTransferState(limit: request.maxResponseBytes, cancellation: cancellation)
        let context = Unmanaged.passRetained(state)
        defer { context.release() }

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { fw_curl_slist_free_all(headerList) }
        for header in request.headers {
            let value = header.value.filter { $0 != "\r" && $0 != "\n" }
            // "Name;" is libcurl's spelling of a header with an empty value.
            headerList = fw_curl_slist_append(
                headerList, value.isEmpty ? "\(header.name);" : "\(header.name): \(value)")
        }
        if request.body != nil {
            // No `Expect: 100-continue` round trip before sending a body.
            headerList = fw_curl_slist_append(headerList, "Expect:")
        }

        var code = configure(request, headers: headerList, context: context.toOpaque())
        if code == CURLE_OK {
            code = fw_curl_easy_perform(handle)
        }
        guard code == CURLE_OK else {
            return (.failure(error(for: code, state: state, request: request)), nil)
        }

        var status = 0
        fw_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var downloaded: curl_off_t = 0
        fw_easy_getinfo_off_t(handle, CURLINFO_SIZE_DOWNLOAD_T, &downloaded)
        var effective: UnsafeMutablePointer<CChar>?
        fw_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        var location: UnsafeMutablePointer<CChar>?
        fw_easy_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location)
        return (
            .success(
                HTTPResponse(
                    status: status, headers: state.headers, body: state.body,
                    effectiveURL: effective.map { String(cString: $0) } ?? request.url,
                    bytesReceived: Int(downloaded))),
            location.map { String(cString: $0) }
        )
    }

    private func configure(
        _ request: HTTPRequest, headers: UnsafeMutablePointer<curl_slist>?, context: UnsafeMutableRawPointer
    ) -> CURLcode {
        var codes: [CURLcode] = [
            fw_easy_setopt_string(handle, CURLOPT_URL, request.url),
            fw_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            fw_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            fw_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            fw_easy_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            // Redirects are followed by `perform`, one hop at a time.
            fw_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            // An empty string: every encoding libcurl can decode, and decoded bodies.
            fw_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""),
            fw_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(max(1, request.connectTimeout.milliseconds))),
            fw_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(max(1, request.timeout.milliseconds))),
            // A declared Content-Length over the limit fails before any body is read.
            fw_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBytes)),
            fw_easy_setopt_write_function(handle, curlWriteCallback),
            fw_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context),
            fw_easy_setopt_header_function(handle, curlHeaderCallback),
            fw_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context),
            fw_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headers),
            fw_easy_setopt_xferinfo_function(handle, curlProgressCallback),
            fw_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, context),
            fw_easy_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
        ]
        let method = request.method.uppercased()
        if let body = request.body {
            codes.append(fw_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS copies the bytes (POSTFIELDSIZE of them), so they need not outlive this call.
            codes.append(
                body.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress else {
                        return fw_easy_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "")
                    }
                    return fw_easy_setopt_pointer(
                        handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))
                })
            if method != "POST" {
                codes.append(fw_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method))
            }
        } else if method == "HEAD" {
            codes.append(fw_easy_setopt_long(handle, CURLOPT_NOBODY, 1))
        } else if method != "GET" {
            codes.append(fw_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method))
        }
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    private func error(for code: CURLcode, state: CurlTransferState, request: HTTPRequest) -> HTTPClientError {
        let raw = Int(code.rawValue)
        switch code {
        case CURLE_ABORTED_BY_CALLBACK:
            return HTTPClientError(.cancelled, curlCode: raw)
        case CURLE_OPERATION_TIMEDOUT:
            return HTTPClientError(.timeout, curlCode: raw)
        case CURLE_TOO_MANY_REDIRECTS:
            return HTTPClientError(.tooManyRedirects, curlCode: raw)
        case CURLE_FILESIZE_EXCEEDED:
            return HTTPClientError(.tooLarge(limit: request.maxResponseBytes), curlCode: raw)
        case CURLE_WRITE_ERROR where state.exceededLimit:
            return HTTPClientError(.tooLarge(limit: request.maxResponseBytes), curlCode: raw)
        default:
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: fw_curl_easy_strerror(code)) : detail
            return HTTPClientError(.transport(message), curlCode: raw)
        }
    }
}
