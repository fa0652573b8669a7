/// Lays out a command's help as two columns: each option's synopsis, then its text. The text
/// column starts two spaces after the widest synopsis that fits in `maxSynopsisWidth`; a wider
/// synopsis gets a line of its own and its text starts on the next line, in the column. So a
/// synopsis and its text are always at least two spaces apart.
package enum HelpColumns {
    package struct Row: Sendable, Equatable {
        package var synopsis: String
        package var help: String

        package init(synopsis: String, help: String) {
            self.synopsis = synopsis
            self.help = help
        }

        /// A flag's row: its synopsis (`--db PATH`) and its help text.
        package init(_ flag: CommandFlagDeclaration) {
            self.init(synopsis: flag.synopsis, help: flag.helpText)
        }
    }

    /// Spaces before each synopsis.
    package static let indent = 2
    /// Spaces at least between a synopsis and its text.
    package static let gap = 2
    /// The widest synopsis that shares its line with its text.
    package static let maxSynopsisWidth = 34

    /// The rows' lines, in order.
    package static func lines(_ rows: [Row]) -> [String] {
        sections([rows])[0]
    }

    /// The lines of each section's rows, every text in one column across the sections (a help
    /// with "arguments:" and "options:").
    package static func sections(_ sections: [[Row]]) -> [[String]] {
        let widest = sections.joined().map(\.synopsis.count).filter { $0 <= maxSynopsisWidth }.max() ?? 0
        let column = indent + widest + gap
        let pad = { (count: Int) in String(repeating: " ", count: count) }
        return sections.map { rows in
            rows.flatMap { row -> [String] in
                let synopsis = pad(indent) + row.synopsis
                if synopsis.count + gap <= column {
                    return [synopsis + pad(column - synopsis.count) + row.help]
                }
                return [synopsis, pad(column) + row.help]
            }
        }
    }
}
