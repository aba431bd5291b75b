// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workqueue.h"

#include <QElapsedTimer>
#include <QTest>

using namespace converge;
using Lane = WorkQueue::Lane;

namespace {

const QDateTime t0{QDate(2024, 5, 1), QTime(12, 0), Qt::UTC};

QDateTime at(int seconds)
{
    return t0.addSecs(seconds);
}

ResourceKey key(const QString &name)
{
    return ResourceKey{QStringLiteral("BlobContainer"), name};
}

// The taken key's name, or "none": readable on failure.
QString take(WorkQueue &queue, const QDateTime &now = t0)
{
    const auto taken = queue.take(now);
    return taken ? taken->name : QStringLiteral("none");
}

// Takes every ready key, in order, marking each done at once.
QStringList drain(WorkQueue &queue, const QDateTime &now = t0)
{
    QStringList names;
    while (const auto taken = queue.take(now)) {
        names << taken->name;
        queue.done(*taken);
    }
    return names;
}

QStringList names(const char *spaceSeparated)
{
    return QString::fromLatin1(spaceSeparated).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

} // namespace

class tst_WorkQueue final : public QObject
{
    Q_OBJECT

private slots:
    void addDeduplicates();
    void merge_data();
    void merge();
    void lanePriority();
    void fifoWithinLane();
    void promotionGoesToBackOfLane();
    void laterDueKeepsPlace();
    void delayedItems();
    void waitingCount();
    void delayedItemsOrderedByLaneOnceDue();
    void earlierDueMakesDelayedKeyReady();
    void timeGoingBack();
    void inFlightExclusivity();
    void requeueAfterDone();
    void requeueMergesAdds();
    void requeueKeepsArrivalOfAdd();
    void doneWithoutAddDoesNotRequeue();
    void cancel();
    void cancelAll();
    void groupLimits();
    void groupLimitRemoved();
    void setGroupWhileQueued();
    void inFlightSlotStaysWithGroup();
    void heldGroups();
    void nextDue();
    void nextDueHeldAndFullGroups();
    void hundredThousandKeys();
    void hundredThousandKeysInOneFullGroup();
};

void tst_WorkQueue::addDeduplicates()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("a")), Lane::Resync);
    queue.add(key(QStringLiteral("a")), Lane::Resync);
    queue.add(key(QStringLiteral("a")), Lane::SpecChange);
    QCOMPARE(queue.queuedCount(), 1);
    QVERIFY(queue.isQueued(key(QStringLiteral("a"))));
    QCOMPARE(take(queue), QStringLiteral("a"));
    QCOMPARE(take(queue), QStringLiteral("none"));
    QCOMPARE(queue.queuedCount(), 0);
    QCOMPARE(queue.inFlightCount(), 1);
}

void tst_WorkQueue::merge_data()
{
    // due in seconds after t0, -1 for "now"; the expected "now" is the epoch
    QTest::addColumn<int>("firstLane");
    QTest::addColumn<int>("firstDue");
    QTest::addColumn<int>("secondLane");
    QTest::addColumn<int>("secondDue");
    QTest::addColumn<int>("expectedLane");
    QTest::addColumn<int>("expectedDue");

    const int user = int(Lane::UserAction);
    const int spec = int(Lane::SpecChange);
    const int retry = int(Lane::Retry);
    const int resync = int(Lane::Resync);
    QTest::newRow("same, later due") << retry << 10 << retry << 20 << retry << 10;
    QTest::newRow("same, earlier due") << retry << 20 << retry << 10 << retry << 10;
    QTest::newRow("now then later") << retry << -1 << retry << 20 << retry << -1;
    QTest::newRow("later then now") << retry << 20 << retry << -1 << retry << -1;
    QTest::newRow("now twice") << spec << -1 << spec << -1 << spec << -1;
    QTest::newRow("more urgent second") << resync << 5 << user << 5 << user << 5;
    QTest::newRow("less urgent second") << user << 5 << resync << 5 << user << 5;
    QTest::newRow("lane of one, due of other") << user << 30 << resync << 10 << user << 10;
    QTest::newRow("lane and due of second") << resync << 30 << spec << -1 << spec << -1;
}

void tst_WorkQueue::merge()
{
    QFETCH(int, firstLane);
    QFETCH(int, firstDue);
    QFETCH(int, secondLane);
    QFETCH(int, secondDue);
    QFETCH(int, expectedLane);
    QFETCH(int, expectedDue);

    const auto due = [](int seconds) { return seconds < 0 ? QDateTime() : at(seconds); };
    const ResourceKey a = key(QStringLiteral("a"));
    WorkQueue queue;
    queue.add(a, Lane(firstLane), due(firstDue));
    queue.add(a, Lane(secondLane), due(secondDue));
    QCOMPARE(queue.queuedCount(), 1);
    QCOMPARE(int(queue.laneOf(a)), expectedLane);
    const QDateTime expected =
        expectedDue < 0 ? QDateTime::fromMSecsSinceEpoch(0, Qt::UTC) : at(expectedDue);
    QCOMPARE(queue.dueTime(a), expected);

    if (expectedDue > 0)
        QCOMPARE(take(queue, at(expectedDue - 1)), QStringLiteral("none"));
    QCOMPARE(take(queue, at(qMax(expectedDue, 0))), QStringLiteral("a"));
    QCOMPARE(int(queue.laneOf(a)), expectedLane);
}

void tst_WorkQueue::lanePriority()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("resync")), Lane::Resync);
    queue.add(key(QStringLiteral("retry")), Lane::Retry);
    queue.add(key(QStringLiteral("spec")), Lane::SpecChange);
    queue.add(key(QStringLiteral("user")), Lane::UserAction);
    queue.add(key(QStringLiteral("resync2")), Lane::Resync);
    queue.add(key(QStringLiteral("user2")), Lane::UserAction);
    QCOMPARE(drain(queue), names("user user2 spec retry resync resync2"));
}

void tst_WorkQueue::fifoWithinLane()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("a")), Lane::SpecChange);
    queue.add(key(QStringLiteral("b")), Lane::SpecChange);
    queue.add(key(QStringLiteral("c")), Lane::SpecChange);
    queue.add(key(QStringLiteral("a")), Lane::SpecChange); // keeps the place of its first add
    queue.add(key(QStringLiteral("b")), Lane::Resync);     // less urgent: changes nothing
    QCOMPARE(drain(queue), names("a b c"));
}

void tst_WorkQueue::promotionGoesToBackOfLane()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("a")), Lane::Resync);
    queue.add(key(QStringLiteral("b")), Lane::Resync);
    queue.add(key(QStringLiteral("c")), Lane::SpecChange);
    queue.add(key(QStringLiteral("b")), Lane::SpecChange);
    queue.add(key(QStringLiteral("d")), Lane::SpecChange);
    QCOMPARE(drain(queue), names("c b d a"));
}

void tst_WorkQueue::laterDueKeepsPlace()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("a")), Lane::Retry);
    queue.add(key(QStringLiteral("b")), Lane::Retry);
    queue.add(key(QStringLiteral("a")), Lane::Retry, at(60)); // the earlier due (now) wins
    QCOMPARE(drain(queue), names("a b"));
}

void tst_WorkQueue::delayedItems()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("later")), Lane::UserAction, at(10));
    queue.add(key(QStringLiteral("now")), Lane::Resync);
    QCOMPARE(queue.dueTime(key(QStringLiteral("later"))), at(10));
    QCOMPARE(take(queue), QStringLiteral("now")); // a delayed urgent key does not block
    QCOMPARE(take(queue), QStringLiteral("none"));
    QCOMPARE(take(queue, t0.addMSecs(9999)), QStringLiteral("none"));
    QCOMPARE(take(queue, at(10)), QStringLiteral("later"));
}

void tst_WorkQueue::waitingCount()
{
    // Keys due later, in any group, apart from those due now.
    WorkQueue queue;
    queue.setGroup(key(QStringLiteral("b")), QStringLiteral("account-b"));
    queue.add(key(QStringLiteral("a")), Lane::Retry, at(10));
    queue.add(key(QStringLiteral("b")), Lane::Retry, at(20));
    queue.add(key(QStringLiteral("now")), Lane::Resync);
    queue.add(key(QStringLiteral("due")), Lane::Retry, at(-1));
    QCOMPARE(queue.queuedCount(), 4);
    QCOMPARE(queue.waitingCount(t0), 2);
    QCOMPARE(queue.waitingCount(at(10)), 1);
    QCOMPARE(queue.waitingCount(at(20)), 0);
}

void tst_WorkQueue::delayedItemsOrderedByLaneOnceDue()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("resync")), Lane::Resync, at(5));
    queue.add(key(QStringLiteral("user")), Lane::UserAction, at(10));
    queue.add(key(QStringLiteral("retry")), Lane::Retry, at(1));
    QCOMPARE(drain(queue, at(20)), names("user retry resync"));
}

void tst_WorkQueue::earlierDueMakesDelayedKeyReady()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("a")), Lane::Retry, at(30));
    QCOMPARE(take(queue), QStringLiteral("none"));
    queue.add(key(QStringLiteral("a")), Lane::Retry);
    QCOMPARE(take(queue), QStringLiteral("a"));
}

void tst_WorkQueue::timeGoingBack()
{
    WorkQueue queue;
    queue.add(key(QStringLiteral("blocker")), Lane::UserAction, at(8));
    queue.add(key(QStringLiteral("a")), Lane::UserAction, at(10));
    queue.add(key(QStringLiteral("b")), Lane::Resync, at(5));
    // At 20 all three are ready; take one so that the others are indexed as ready.
    QCOMPARE(take(queue, at(20)), QStringLiteral("blocker"));
    // Asked at an earlier time, a key is still only handed out once due.
    QCOMPARE(take(queue, at(6)), QStringLiteral("b"));
    QCOMPARE(take(queue, at(6)), QStringLiteral("none"));
    QCOMPARE(take(queue, at(10)), QStringLiteral("a"));
}

void tst_WorkQueue::inFlightExclusivity()
{
    const ResourceKey a = key(QStringLiteral("a"));
    WorkQueue queue;
    queue.add(a, Lane::SpecChange);
    QCOMPARE(take(queue), QStringLiteral("a"));
    QVERIFY(queue.isInFlight(a));
    QCOMPARE(queue.laneOf(a), Lane::SpecChange);

    queue.add(a, Lane::UserAction);
    QVERIFY(!queue.isQueued(a));
    QCOMPARE(queue.queuedCount(), 0);
    QVERIFY(!queue.dueTime(a).isValid());
    QCOMPARE(take(queue, at(3600)), QStringLiteral("none"));
    QCOMPARE(queue.laneOf(a), Lane::SpecChange); // still the lane it was taken from
}

void tst_WorkQueue::requeueAfterDone()
{
    const ResourceKey a = key(QStringLiteral("a"));
    WorkQueue queue;
    queue.add(a, Lane::SpecChange);
    QCOMPARE(take(queue), QStringLiteral("a"));
    queue.add(a, Lane::Retry, at(10));
    queue.done(a);
    QVERIFY(!queue.isInFlight(a));
    QVERIFY(queue.isQueued(a));
    QCOMPARE(queue.inFlightCount(), 0);
    QCOMPARE(queue.dueTime(a), at(10));
    QCOMPARE(take(queue), QStringLiteral("none"));
    QCOMPARE(take(queue, at(10)), QStringLiteral("a"));
    QCOMPARE(queue.laneOf(a), Lane::Retry);
}

void tst_WorkQueue::requeueMergesAdds()
{
    const ResourceKey a = key(QStringLiteral("a"));
    WorkQueue queue;
    queue.add(a, Lane::Resync);
    QCOMPARE(take(queue), QStringLiteral("a"));
    queue.add(a, Lane::Resync, at(10));
    queue.add(a, Lane::UserAction, at(20));
    queue.add(a, Lane::Retry, at(30));
    queue.done(a);
    QCOMPARE(queue.queuedCount(), 1);
    QCOMPARE(queue.dueTime(a), at(10));
    QCOMPARE(queue.laneOf(a), Lane::UserAction);
}

void tst_WorkQueue::requeueKeepsArrivalOfAdd()
{
    // A key added while in flight keeps its place from that add, ahead of later arrivals.
    WorkQueue queue;
    queue.add(key(QStringLiteral("a")), Lane::SpecChange);
    QCOMPARE(take(queue), QStringLiteral("a"));
    queue.add(key(QStringLiteral("a")), Lane::SpecChange);
    queue.add(key(QStringLiteral("b")), Lane::SpecChange);
    queue.done(key(QStringLiteral("a")));
    QCOMPARE(drain(queue), names("a b"));
}

void tst_WorkQueue::doneWithoutAddDoesNotRequeue()
{
    const ResourceKey a = key(QStringLiteral("a"));
    WorkQueue queue;
    queue.add(a, Lane::SpecChange);
    QCOMPARE(take(queue), QStringLiteral("a"));
    queue.done(a);
    QCOMPARE(queue.queuedCount(), 0);
    QCOMPARE(queue.inFlightCount(), 0);
    QVERIFY(!queue.nextDue().isValid());
    queue.done(a); // twice, or for an unknown key: no effect
    queue.done(key(QStringLiteral("unknown")));
    QCOMPARE(queue.inFlightCount(), 0);
    QCOMPARE(take(queue), QStringLiteral("none"));
}

void tst_WorkQueue::cancel()
{
    const ResourceKey a = key(QStringLiteral("a"));
    const ResourceKey b = key(QStringLiteral("b"));
    const ResourceKey c = key(QStringLiteral("c"));
    WorkQueue queue;
    queue.add(a, Lane::SpecChange);
    queue.add(b, Lane::SpecChange, at(10));
    queue.add(c, Lane::SpecChange);

    QVERIFY(queue.cancel(b)); // delayed
    QVERIFY(!queue.isQueued(b));
    QVERIFY(!queue.cancel(b));
    QVERIFY(!queue.cancel(key(QStringLiteral("unknown"))));
    QCOMPARE(queue.queuedCount(), 2);

    QCOMPARE(take(queue), QStringLiteral("a"));
    QVERIFY(!queue.cancel(a)); // in flight, nothing queued: flight goes on
    QVERIFY(queue.isInFlight(a));
    queue.add(a, Lane::UserAction);
    QVERIFY(queue.cancel(a)); // forgets the add made while in flight
    QVERIFY(queue.isInFlight(a));
    queue.done(a);
    QVERIFY(!queue.isQueued(a));

    QVERIFY(queue.cancel(c)); // ready
    QCOMPARE(queue.queuedCount(), 0);
    QCOMPARE(take(queue, at(3600)), QStringLiteral("none"));
    QVERIFY(!queue.nextDue().isValid());
}

void tst_WorkQueue::cancelAll()
{
    const ResourceKey a = key(QStringLiteral("a"));
    WorkQueue queue;
    queue.setGroup(key(QStringLiteral("g")), QStringLiteral("account"));
    queue.add(a, Lane::SpecChange);
    queue.add(key(QStringLiteral("b")), Lane::Retry, at(10));
    queue.add(key(QStringLiteral("c")), Lane::Resync);
    QCOMPARE(take(queue), QStringLiteral("a"));
    queue.add(a, Lane::UserAction); // while in flight
    queue.cancelAll();
    QCOMPARE(queue.queuedCount(), 0);
    QVERIFY(queue.isInFlight(a)); // flight goes on
    queue.done(a);
    QVERIFY(!queue.isQueued(a));
    QCOMPARE(take(queue, at(3600)), QStringLiteral("none"));
    QVERIFY(!queue.nextDue().isValid());
}

void tst_WorkQueue::groupLimits()
{
    WorkQueue queue;
    for (const char *name : {"a1", "a2", "a3"})
        queue.setGroup(key(QString::fromLatin1(name)), QStringLiteral("A"));
    queue.setGroup(key(QStringLiteral("b1")), QStringLiteral("B"));
    queue.setGroupLimit(QStringLiteral("A"), 2);
    for (const char *name : {"a1", "a2", "a3", "b1", "free"})
        queue.add(key(QString::fromLatin1(name)), Lane::SpecChange);

    QCOMPARE(take(queue), QStringLiteral("a1"));
    QCOMPARE(take(queue), QStringLiteral("a2"));
    QCOMPARE(queue.groupInFlight(QStringLiteral("A")), 2);
    QCOMPARE(take(queue), QStringLiteral("b1")); // a3 waits for a slot of A
    QCOMPARE(take(queue), QStringLiteral("free"));
    QCOMPARE(take(queue), QStringLiteral("none"));
    QVERIFY(queue.isQueued(key(QStringLiteral("a3"))));
    QCOMPARE(queue.groupInFlight(QStringLiteral("B")), 1);

    queue.done(key(QStringLiteral("a1")));
    QCOMPARE(queue.groupInFlight(QStringLiteral("A")), 1);
    QCOMPARE(take(queue), QStringLiteral("a3"));
    QCOMPARE(queue.groupInFlight(QStringLiteral("A")), 2);
}

void tst_WorkQueue::groupLimitRemoved()
{
    WorkQueue queue;
    for (const char *name : {"a1", "a2"}) {
        queue.setGroup(key(QString::fromLatin1(name)), QStringLiteral("A"));
        queue.add(key(QString::fromLatin1(name)), Lane::Resync);
    }
    queue.setGroupLimit(QStringLiteral("A"), 1);
    QCOMPARE(take(queue), QStringLiteral("a1"));
    QCOMPARE(take(queue), QStringLiteral("none"));
    queue.setGroupLimit(QStringLiteral("A"), 0);
    QCOMPARE(take(queue), QStringLiteral("a2"));
}

void tst_WorkQueue::setGroupWhileQueued()
{
    WorkQueue queue;
    queue.setGroupLimit(QStringLiteral("A"), 1);
    queue.setGroup(key(QStringLiteral("a1")), QStringLiteral("A"));
    queue.setGroup(key(QStringLiteral("a2")), QStringLiteral("A"));
    queue.add(key(QStringLiteral("a1")), Lane::Resync);
    queue.add(key(QStringLiteral("a2")), Lane::UserAction, at(5));
    QCOMPARE(take(queue), QStringLiteral("a1"));
    QCOMPARE(take(queue, at(5)), QStringLiteral("none"));

    queue.setGroup(key(QStringLiteral("a2")), QStringLiteral("B"));
    QCOMPARE(queue.dueTime(key(QStringLiteral("a2"))), at(5));
    QCOMPARE(take(queue, at(4)), QStringLiteral("none"));
    QCOMPARE(take(queue, at(5)), QStringLiteral("a2"));
    QCOMPARE(queue.groupInFlight(QStringLiteral("B")), 1);
}

void tst_WorkQueue::inFlightSlotStaysWithGroup()
{
    const ResourceKey a = key(QStringLiteral("a"));
    WorkQueue queue;
    queue.setGroup(a, QStringLiteral("A"));
    queue.add(a, Lane::Resync);
    QCOMPARE(take(queue), QStringLiteral("a"));
    queue.setGroup(a, QStringLiteral("B"));
    QCOMPARE(queue.groupInFlight(QStringLiteral("A")), 1);
    QCOMPARE(queue.groupInFlight(QStringLiteral("B")), 0);
    queue.done(a);
    QCOMPARE(queue.groupInFlight(QStringLiteral("A")), 0);
    QCOMPARE(queue.groupInFlight(QStringLiteral("B")), 0);
}

void tst_WorkQueue::heldGroups()
{
    WorkQueue queue;
    queue.setGroup(key(QStringLiteral("a")), QStringLiteral("A"));
    queue.setGroup(key(QStringLiteral("b")), QStringLiteral("B"));
    queue.add(key(QStringLiteral("a")), Lane::UserAction);
    queue.add(key(QStringLiteral("b")), Lane::Resync);
    queue.holdGroup(QStringLiteral("A"), at(30));

    QCOMPARE(take(queue), QStringLiteral("b"));
    QCOMPARE(take(queue, at(29)), QStringLiteral("none"));
    QCOMPARE(take(queue, at(30)), QStringLiteral("a")); // held while now < until

    queue.add(key(QStringLiteral("a2")), Lane::UserAction);
    queue.setGroup(key(QStringLiteral("a2")), QStringLiteral("A"));
    queue.holdGroup(QStringLiteral("A"), at(100));
    QCOMPARE(take(queue, at(40)), QStringLiteral("none"));
    queue.holdGroup(QStringLiteral("A"), QDateTime()); // released
    QCOMPARE(take(queue, at(40)), QStringLiteral("a2"));
}

void tst_WorkQueue::nextDue()
{
    const QDateTime epoch = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    WorkQueue queue;
    QVERIFY(!queue.nextDue().isValid());

    queue.add(key(QStringLiteral("later")), Lane::Resync, at(20));
    QCOMPARE(queue.nextDue(), at(20));
    queue.add(key(QStringLiteral("sooner")), Lane::Resync, at(10));
    QCOMPARE(queue.nextDue(), at(10));
    queue.add(key(QStringLiteral("now")), Lane::Resync);
    QCOMPARE(queue.nextDue(), epoch); // ready: in the past, no sleep

    QCOMPARE(take(queue), QStringLiteral("now"));
    QCOMPARE(queue.nextDue(), at(10));
    queue.add(key(QStringLiteral("now")), Lane::UserAction); // in flight: not queued yet
    QCOMPARE(queue.nextDue(), at(10));

    QCOMPARE(take(queue, at(15)), QStringLiteral("sooner"));
    QCOMPARE(queue.nextDue(), at(20));
    QCOMPARE(take(queue, at(20)), QStringLiteral("later"));
    QVERIFY(!queue.nextDue().isValid());
    queue.done(key(QStringLiteral("now")));
    QCOMPARE(queue.nextDue(), epoch);
}

void tst_WorkQueue::nextDueHeldAndFullGroups()
{
    WorkQueue queue;
    queue.setGroup(key(QStringLiteral("a")), QStringLiteral("A"));
    queue.setGroup(key(QStringLiteral("a2")), QStringLiteral("A"));
    queue.add(key(QStringLiteral("a")), Lane::Resync);
    queue.holdGroup(QStringLiteral("A"), at(30));
    QCOMPARE(queue.nextDue(), at(30)); // not "now": that would spin

    queue.add(key(QStringLiteral("free")), Lane::Resync, at(40));
    QCOMPARE(queue.nextDue(), at(30));
    queue.add(key(QStringLiteral("free")), Lane::Resync, at(20));
    QCOMPARE(queue.nextDue(), at(20));
    QVERIFY(queue.cancel(key(QStringLiteral("free"))));

    QVERIFY(queue.cancel(key(QStringLiteral("a"))));
    queue.add(key(QStringLiteral("a")), Lane::Resync, at(50));
    QCOMPARE(queue.nextDue(), at(50)); // due after the hold ends

    // A group at its limit waits for done(), not for a time.
    queue.holdGroup(QStringLiteral("A"), QDateTime());
    queue.setGroupLimit(QStringLiteral("A"), 1);
    queue.add(key(QStringLiteral("a2")), Lane::Resync);
    QCOMPARE(take(queue), QStringLiteral("a2"));
    QVERIFY(!queue.nextDue().isValid());
    queue.done(key(QStringLiteral("a2")));
    QCOMPARE(queue.nextDue(), at(50));
}

void tst_WorkQueue::hundredThousandKeys()
{
    constexpr int count = 100'000;
    QList<ResourceKey> keys;
    keys.reserve(count);
    for (int i = 0; i < count; ++i)
        keys << ResourceKey{QStringLiteral("Blob"), QString::number(i)};
    const QStringList groups{QStringLiteral("acct-0"), QStringLiteral("acct-1"),
                             QStringLiteral("acct-2")};
    QElapsedTimer timer;
    timer.start();

    WorkQueue queue;
    for (const QString &group : groups)
        queue.setGroupLimit(group, 2);
    for (int i = 0; i < count; ++i) {
        if (i % 3 == 0)
            queue.setGroup(keys[i], groups[i % groups.size()]);
        queue.add(keys[i], Lane(i % 4), i % 10 == 0 ? at(i % 7) : QDateTime());
    }
    for (int i = 0; i < count; i += 10) // duplicates change nothing
        queue.add(keys[i], Lane::Resync, at(100));
    QCOMPARE(queue.queuedCount(), count);
    // Key 0 is due at t0: the first ready key of the first lane is 4.
    QCOMPARE(take(queue, at(-1)), QStringLiteral("4"));
    queue.done(keys[4]);

    int taken = 1;
    int lastLane = 0;
    bool ordered = true;
    while (const auto key = queue.take(at(10))) {
        const int lane = int(queue.laneOf(*key));
        ordered = ordered && lane >= lastLane;
        lastLane = lane;
        if (taken % 1000 == 0) {
            queue.add(*key, Lane::Retry, at(20)); // queued again by done()
            QVERIFY(queue.nextDue() <= at(10));   // ready keys are left: no sleep
        }
        queue.done(*key);
        ++taken;
    }
    QCOMPARE(taken, count);
    QVERIFY(ordered);
    QCOMPARE(queue.inFlightCount(), 0);
    QCOMPARE(queue.queuedCount(), count / 1000 - 1);
    QCOMPARE(queue.nextDue(), at(20));

    const qint64 elapsed = timer.elapsed();
    qInfo("100,000 keys added and taken in %lld ms", elapsed);
    // About 1 s in a debug build; generous for a loaded machine. A take() in O(n) needs minutes.
    QVERIFY2(elapsed < 20000, QByteArray::number(elapsed));
}

void tst_WorkQueue::hundredThousandKeysInOneFullGroup()
{
    // Workers asking while the only group is full must not scan its queued keys.
    constexpr int count = 100'000;
    const QString group = QStringLiteral("slow");
    QList<ResourceKey> keys;
    keys.reserve(count);
    for (int i = 0; i < count; ++i)
        keys << ResourceKey{QStringLiteral("Blob"), QString::number(i)};
    QElapsedTimer timer;
    timer.start();

    WorkQueue queue;
    queue.setGroupLimit(group, 1);
    for (const ResourceKey &key : std::as_const(keys)) {
        queue.setGroup(key, group);
        queue.add(key, Lane::SpecChange);
    }
    int taken = 0;
    bool inOrder = true;
    bool blocked = true;
    while (const auto key = queue.take(t0)) {
        inOrder = inOrder && *key == keys[taken];
        blocked = blocked && !queue.take(t0); // another worker asks
        queue.done(*key);
        ++taken;
    }
    QCOMPARE(taken, count);
    QVERIFY(inOrder);
    QVERIFY(blocked);

    const qint64 elapsed = timer.elapsed();
    qInfo("100,000 keys through a group of one slot in %lld ms", elapsed);
    QVERIFY2(elapsed < 20000, QByteArray::number(elapsed));
}

QTEST_GUILESS_MAIN(tst_WorkQueue)
#include "tst_workqueue.moc"
