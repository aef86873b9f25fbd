import Foundation
import Synchronization
import Testing

@testable import LTrainServe

/// When the watcher reports a burst of changes: at once (after `settle`) when every file it
/// touched is written and closed, soon (after `quiet`) when one is deleted, and only after
/// `patience` when the burst is half a save (a file renamed away or still open).
/// The event sequences are those an inotify reader saw for each kind of save.
struct FileWatcherTests {
    private func burst(_ events: [(Burst.Event, String)]) -> Burst {
        var burst = Burst()
        for (event, path) in events { burst.add(event, at: path) }
        return burst
    }

    @Test func aWriteInPlaceIsSettled() {
        #expect(burst([(.written, "c/x.md")]).isSettled)
    }

    @Test func aSaveThroughATemporaryFileIsSettledOnceRenamedOver() {
        let started = [(Burst.Event.created, "c/x.md.tmp")]
        #expect(!burst(started).isSettled)
        let written = started + [(.written, "c/x.md.tmp")]
        #expect(burst(written).isSettled)
        let renamed = written + [(.renamedAway, "c/x.md.tmp"), (.arrived, "c/x.md")]
        #expect(burst(renamed).isSettled)
        #expect(burst(renamed).paths == ["c/x.md.tmp", "c/x.md"])
    }

    @Test func vimsSaveWithABackupIsSettledOnlyWhenTheFileIsBack() {
        // `4913` probe, the file renamed away to `x.md~`, written again, the backup deleted.
        let probe: [(Burst.Event, String)] = [
            (.created, "c/4913"), (.written, "c/4913"), (.removed, "c/4913"),
        ]
        #expect(burst(probe).isSettled)
        let away = probe + [(.renamedAway, "c/x.md"), (.arrived, "c/x.md~")]
        #expect(burst(away).progress == .halfSaved, "the file is gone: the editor is about to write it again")
        let recreated = away + [(.created, "c/x.md")]
        #expect(burst(recreated).progress == .halfSaved, "created, not yet closed")
        let done = recreated + [(.written, "c/x.md"), (.written, "c/x.md"), (.removed, "c/x.md~")]
        #expect(burst(done).isSettled)
    }

    @Test func aDeletedFileWaitsForTheQuietPeriodOnly() {
        #expect(burst([(.removed, "c/x.md")]).progress == .deleted)
        #expect(burst([(.written, "c/x.md"), (.removed, "c/x.md")]).progress == .deleted)
        #expect(burst([(.removed, "c/x.md"), (.created, "c/y.md")]).progress == .halfSaved, "half a save outweighs a deletion")
        #expect(burst([(.created, "c/t"), (.removed, "c/t")]).progress == .settled, "a file that came and went")
    }

    /// The real watcher, end to end: a write in place and a save through a temporary file are
    /// each reported with their paths.
    @Test func theWatcherReportsEachSaveAsOneBurst() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ltrain-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "a\n".write(toFile: folder + "/x.md", atomically: false, encoding: .utf8)
        let watcher = try FileWatcher(folders: [folder])
        let reported = Mutex<[Set<String>]>([])
        watcher.start { paths in reported.withLock { $0.append(paths) } }
        defer { watcher.stop() }
        func waitForBursts(_ count: Int) {
            for _ in 0..<200 where reported.withLock({ $0.count }) < count { usleep(10_000) }
        }
        try "b\n".write(toFile: folder + "/x.md", atomically: false, encoding: .utf8)
        waitForBursts(1)
        try "c\n".write(toFile: folder + "/x.md.tmp", atomically: false, encoding: .utf8)
        #expect(rename(folder + "/x.md.tmp", folder + "/x.md") == 0)
        waitForBursts(2)
        usleep(50_000)
        let bursts = reported.withLock { $0 }
        #expect(bursts.first == [folder + "/x.md"])
        // One burst, unless this busy machine paused the test more than 5 ms between the write and
        // the rename; then the rename comes in a burst of its own, never before the write.
        #expect(bursts.dropFirst().reduce(into: Set<String>()) { $0.formUnion($1) } == [folder + "/x.md.tmp", folder + "/x.md"])
        #expect(bursts.last?.contains(folder + "/x.md") == true)
    }

    /// More changes at once than the kernel queues for the watcher (a branch switched over a
    /// large site): the changes lost are unknown, so the watched folder itself is reported, which
    /// the preview reads again whole.
    @Test func changesLostToAFullQueueReportTheWatchedFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ltrain-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = try #require(
            Int(try String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)))
        let watcher = try FileWatcher(folders: [folder])
        // Not read yet: each new file queues two events (created, closed after writing).
        for number in 0..<(limit / 2 + 64) {
            let descriptor = creat(folder + "/\(number).md", 0o644)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        let reported = Mutex<[Set<String>]>([])
        watcher.start { paths in reported.withLock { $0.append(paths) } }
        defer { watcher.stop() }
        // The watcher parses every queued event before it reports, which takes seconds in a debug
        // build under ThreadSanitizer beside the rest of the suite: up to 30 s, returning as soon as
        // the folder is reported.
        for _ in 0..<3_000 where !reported.withLock({ $0.contains { $0.contains(folder) } }) { usleep(10_000) }
        #expect(reported.withLock { $0.contains { $0.contains(folder) } }, "the folder itself is reported")
    }

    /// A watched folder swapped for another (renamed away, another renamed in its place), then
    /// deleted and made again: each is reported as the folder's own path, and the folder now at
    /// that path is the one watched, not the one renamed away.
    @Test func aWatchedFolderSwappedOrMadeAgainIsReportedAndWatchedWhereItNowIs() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("ltrain-watch-\(UUID().uuidString)").path
        let content = site + "/content"
        try FileManager.default.createDirectory(atPath: content + "/stations", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site + "/content-new/stations", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: site) }
        let watcher = try FileWatcher(folders: [content])
        let reported = Mutex<[Set<String>]>([])
        watcher.start { paths in reported.withLock { $0.append(paths) } }
        defer { watcher.stop() }
        func nextBurst(after count: Int) -> Set<String>? {
            for _ in 0..<300 where reported.withLock({ $0.count }) <= count { usleep(10_000) }
            return reported.withLock { $0.count > count ? $0[count] : nil }
        }

        // Renamed away (reported once the watcher's patience for the rest of a save runs out):
        // what is written in it now is not the site's.
        #expect(rename(content, site + "/content-old") == 0)
        #expect(nextBurst(after: 0) == [content])
        try "a\n".write(toFile: site + "/content-old/stations/x.md", atomically: false, encoding: .utf8)
        usleep(100_000)
        #expect(rename(site + "/content-new", content) == 0)
        #expect(nextBurst(after: 1) == [content], "the folder renamed in, and nothing of the one renamed away")
        try "a\n".write(toFile: content + "/stations/y.md", atomically: false, encoding: .utf8)
        #expect(nextBurst(after: 2) == [content + "/stations/y.md"])
        // The same one folder down: renamed inside the watched folder, its files are reported at
        // its new path; renamed out of it, they are not reported at all.
        #expect(rename(content + "/stations", content + "/stations-old") == 0)
        #expect(nextBurst(after: 3) == [content + "/stations", content + "/stations-old"])
        #expect(rename(content + "/stations-old", site + "/stations-old") == 0)
        #expect(nextBurst(after: 4) == [content + "/stations-old"])
        try "b\n".write(toFile: site + "/stations-old/y.md", atomically: false, encoding: .utf8)
        usleep(100_000)
        try "b\n".write(toFile: content + "/index.md", atomically: false, encoding: .utf8)
        #expect(nextBurst(after: 5) == [content + "/index.md"], "nothing of the folder renamed out")

        // Deleted (its files may come in a burst of their own), then made again.
        try FileManager.default.removeItem(atPath: content)
        for _ in 0..<300 where !reported.withLock({ $0.dropFirst(6).contains { $0.contains(content) } }) { usleep(10_000) }
        let afterDeletion = reported.withLock { $0.count }
        #expect(afterDeletion > 6, "the deletion is reported")
        try FileManager.default.createDirectory(atPath: content, withIntermediateDirectories: false)
        #expect(nextBurst(after: afterDeletion) == [content])
        try "b\n".write(toFile: content + "/index.md", atomically: false, encoding: .utf8)
        #expect(nextBurst(after: afterDeletion + 1) == [content + "/index.md"])
    }
}
