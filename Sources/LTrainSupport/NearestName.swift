/// "Did you mean …?": the known name closest to a misspelt one, for commands, options,
/// front-matter keys, label keys and template names.
public enum NearestName {
    /// The known name nearest to `name` by edit distance (a swap of two neighbouring letters
    /// counts as one edit, case is ignored), if it is near enough to be a likely typo: at most
    /// one edit per three characters of `name`, and at least one. Ties go to the first name in
    /// sorted order, so the answer does not depend on the order `known` comes in.
    public static func suggestion<Names: Sequence<String>>(for name: String, among known: Names) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        let allowed = max(1, typed.count / 3)
        var best: (distance: Int, name: String)?
        for candidate in Set(known).sorted() where candidate != name {
            let distance = editDistance(typed, Array(candidate.lowercased().unicodeScalars), limit: allowed)
            guard distance <= allowed else { continue }
            if best == nil || distance < best?.distance ?? .max { best = (distance, candidate) }
        }
        return best?.name
    }

    /// `" (did you mean 'x'?)"` or nothing: for the end of a message.
    public static func hint<Names: Sequence<String>>(for name: String, among known: Names) -> String {
        suggestion(for: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Optimal string alignment distance (insert, delete, substitute, swap neighbours), cut short
    /// once every entry of a row exceeds `limit` (names are short; this keeps a long one cheap).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforeLast = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            var smallest = row[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforeLast[j - 2] + 1)
                }
                row[j] = value
                smallest = min(smallest, value)
            }
            if smallest > limit { return limit + 1 }
            (beforeLast, last, row) = (last, row, beforeLast)
        }
        return last[b.count]
    }
}
