import Foundation

/// JSON string literals, for the few JSON texts ltrain writes (the web app manifest, the offline
/// list, serve's problem events): one escaping rule for all of them.
package enum JSONText {
    /// `text` as a JSON string literal. `<` is escaped too, so the text can never close a script
    /// element it is written into, and U+2028/U+2029, which JavaScript before ES2019 reads as
    /// line ends.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<": result += "\\u003c"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
