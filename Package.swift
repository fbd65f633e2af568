// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

// The Swift client and the wire types: Foundation only, no dependency, so an app that adds LatchkeyAuth resolves and
// compiles nothing of the server. The server is the package in server/, beside this one, and depends on it.
let package = Package(
    name: "latchkey",
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        // The request and response bodies, for Swift clients of the API (and the server).
        .library(name: "LatchkeyWire", targets: ["LatchkeyWire"]),
        // The Swift client, Firebase Auth's shape over Latchkey's API.
        .library(name: "LatchkeyAuth", targets: ["LatchkeyAuth"]),
        .executable(name: "latchkey-signin", targets: ["LatchkeySignIn"]),
    ],
    targets: [
        .target(name: "LatchkeyWire", swiftSettings: swiftSettings),
        .target(name: "LatchkeyAuth", dependencies: ["LatchkeyWire"], swiftSettings: swiftSettings),
        // The example: email-link sign-in from a terminal, on LatchkeyAuth alone.
        .executableTarget(name: "LatchkeySignIn", dependencies: ["LatchkeyAuth"], swiftSettings: swiftSettings),
    ]
)
