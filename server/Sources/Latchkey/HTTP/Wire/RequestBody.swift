import Foundation
import Hummingbird
import LatchkeyDomain
import NIOCore
import NIOPosix

/// Reads request bodies into wire types: each body is parsed once by ``JSONParser``, which refuses oversized,
/// malformed and duplicate-key bodies in the error envelope, then decoded from the parsed value.
package enum RequestBody {
    /// The JSON object body as `Body`.
    static func decode<Body: RefusedFields>(_ type: Body.Type, from request: Request, context: some RequestContext) async throws -> Body {
        try decode(type, from: try parseJSONObject(try await bytes(request, context: context)))
    }

    /// `decode` for a body of megabytes (an admin's import): parsed and decoded on the thread pool, since that takes
    /// milliseconds of CPU the cooperative pool must not spend.
    static func decodeLarge<Body: RefusedFields & Sendable>(_ type: Body.Type, from request: Request, context: some RequestContext) async throws -> Body {
        let bytes = try await bytes(request, context: context)
        return try await NIOThreadPool.singleton.runIfActive { try decode(type, from: try parseJSONObject(bytes)) }
    }

    /// The JSON object body as parsed, for requests whose meaning depends on which members are present or null
    /// (an admin `PATCH` with its `updateMask`).
    static func object(from request: Request, context: some RequestContext) async throws -> JSONValue {
        try parseJSONObject(try await bytes(request, context: context))
    }

    /// A JSON object, or the fields of an `application/x-www-form-urlencoded` body, as `Body`: the token endpoint
    /// accepts both.
    static func decodeJSONOrForm<Body: RefusedFields>(_ type: Body.Type, from request: Request, context: some RequestContext) async throws -> Body {
        let body = try await bytes(request, context: context)
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            return try decode(type, from: try parseJSONObject(body))
        }
        let invalid = APIError(status: .badRequest, message: "Invalid form payload received.", rpcStatus: "INVALID_ARGUMENT")
        guard let pairs = QueryString.decode(String(decoding: body, as: UTF8.self)) else { throw invalid }
        var fields: [String: JSONValue] = [:]
        for (name, value) in pairs {
            guard fields[name] == nil else { throw invalid }
            fields[name] = .string(value)
        }
        return try decode(type, from: .object(fields))
    }

    /// A field of the wrong type is refused with that field's own code (``RefusedFields``).
    package static func decode<Body: RefusedFields>(_ type: Body.Type, from value: JSONValue) throws -> Body {
        do {
            return try JSONValueDecoder.decode(type, from: value)
        } catch let error as DecodingError {
            throw Body.refusal(for: error)
        }
    }

    /// `RequestTimeoutMiddleware` has already read the body, within the time and the caller's size limit; here the
    /// route's own limit holds (an admin's body may be larger on an admin route only).
    private static func bytes(_ request: Request, context: some RequestContext) async throws -> [UInt8] {
        do {
            return Array(try await request.body.collect(upTo: context.maxUploadSize).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError.payloadTooLarge
        }
    }

    private static func parseJSONObject(_ bytes: [UInt8]) throws -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw APIError.invalidJSON(error.message)
        }
        guard case .object = value else { throw APIError.invalidJSON("Expected a JSON object.") }
        switch value["tenantId"] {
        case nil, .null?: break
        case .string(let tenant)?: try Tenancy.requireNoTenant(tenant)
        // A tenant named by something other than a string is still a tenant named.
        case let other?: try Tenancy.requireNoTenant("\(other)")
        }
        return value
    }
}
