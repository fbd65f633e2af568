/// Google's API error envelope, which every Firebase client parses:
/// `{"error":{"code","message","errors":[{"message","domain","reason"}],"status","details"}}`.
public struct ErrorEnvelope: Sendable, Codable, Equatable {
    public var error: Body

    public init(error: Body) {
        self.error = error
    }

    /// The error itself. For Identity Toolkit refusals `message` is the code clients switch on (`CODE` or
    /// `CODE : detail`) and `status` is absent.
    public struct Body: Sendable, Codable, Equatable {
        /// The HTTP status code.
        public var code: Int
        public var message: String
        /// One item, repeating the message: the legacy form older clients read.
        public var errors: [Item]
        /// The RPC status name, such as `INVALID_ARGUMENT`.
        public var status: String?
        /// Machine-readable detail; absent rather than empty, as in Google's answers.
        public var details: [ErrorInfo]?

        public init(code: Int, message: String, reason: String, status: String? = nil, details: [ErrorInfo]? = nil) {
            self.code = code
            self.message = message
            errors = [Item(message: message, reason: reason)]
            self.status = status
            self.details = details
        }
    }

    /// An entry of `errors`.
    public struct Item: Sendable, Codable, Equatable {
        public var message: String
        public var domain = "global"
        public var reason: String

        public init(message: String, reason: String) {
            self.message = message
            self.reason = reason
        }
    }

    /// `google.rpc.ErrorInfo`: the reason as current Google clients and proxies read it, where `errors[].reason` is legacy.
    public struct ErrorInfo: Sendable, Codable, Equatable {
        public var type = "type.googleapis.com/google.rpc.ErrorInfo"
        public var reason: String
        public var domain = "googleapis.com"
        public var metadata: [String: String]

        public init(reason: String, metadata: [String: String]) {
            self.reason = reason
            self.metadata = metadata
        }

        private enum CodingKeys: String, CodingKey {
            case type = "@type"
            case reason, domain, metadata
        }
    }
}
