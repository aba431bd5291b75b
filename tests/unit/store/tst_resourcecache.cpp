// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcecache.h"

#include "workspace.h"

#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

Resource queue(const QString &name)
{
    Resource r;
    r.apiVersion = s("azure.converge.dev/v1");
    r.kind = s("Queue");
    r.metadata.name = name;
    r.spec = {{s("owner"), QJsonObject{{s("name"), s("devstore")}}}};
    return r;
}

} // namespace

/// The cache reads through one connection while another (a second worker) writes: what it hands
/// back must always be what Workspace::get would.
class tst_ResourceCache final : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        const QString path = m_dir->filePath(s("cache.converge"));
        StoreError error;
        m_writer = Workspace::open(path, &error);
        QVERIFY2(m_writer, qPrintable(error.message));
        m_reader = Workspace::open(path, &error);
        QVERIFY2(m_reader, qPrintable(error.message));
        QVERIFY2(m_writer->apply({queue(s("a")), queue(s("b")), queue(s("c"))}, nullptr, &error),
                 qPrintable(error.message));
    }

    void cleanup()
    {
        m_reader.reset();
        m_writer.reset();
        m_dir.reset();
    }

    void unchangedResourceIsKept()
    {
        ResourceCache cache;
        const ResourceKey key{s("Queue"), s("a")};
        const std::optional<Resource> first = cache.get(*m_reader, key);
        QVERIFY(first);
        QCOMPARE(cache.hits(), 0);
        const std::optional<Resource> again = cache.get(*m_reader, key);
        QCOMPARE(cache.hits(), 1);
        QVERIFY(again);
        QCOMPARE(*again, *first);
        QCOMPARE(*again, *m_reader->get(key));
    }

    void writesOfAnotherConnectionAreSeen()
    {
        ResourceCache cache;
        const ResourceKey key{s("Queue"), s("a")};
        QVERIFY(cache.get(*m_reader, key));
        ResourceStatus status;
        status.setCondition(Condition::ready(1, QDateTime::currentDateTimeUtc()));
        StoreError error;
        QVERIFY2(m_writer->updateStatus(key, status, &error), qPrintable(error.message));
        const std::optional<Resource> read = cache.get(*m_reader, key);
        QVERIFY(read);
        QVERIFY(read->status.ready().isReady());
        QCOMPARE(*read, *m_reader->get(key));
        QCOMPARE(cache.hits(), 0);

        Resource changed = *read;
        changed.metadata.labels.insert(s("team"), s("storage"));
        QVERIFY2(m_writer->update(changed, &error), qPrintable(error.message));
        QCOMPARE(cache.get(*m_reader, key)->metadata.labels.value(s("team")), s("storage"));
        QCOMPARE(cache.hits(), 0);
    }

    void removedAndRecreatedResourcesAreNotConfused()
    {
        ResourceCache cache;
        const ResourceKey key{s("Queue"), s("b")};
        const std::optional<Resource> before = cache.get(*m_reader, key);
        QVERIFY(before);
        StoreError error;
        QVERIFY2(m_writer->remove(key, &error), qPrintable(error.message));
        QVERIFY(!cache.get(*m_reader, key));
        QVERIFY2(m_writer->apply({queue(s("b"))}, nullptr, &error), qPrintable(error.message));
        const std::optional<Resource> after = cache.get(*m_reader, key);
        QVERIFY(after);
        QVERIFY(after->metadata.uid != before->metadata.uid);
        QCOMPARE(cache.hits(), 0);
    }

    void keepsAtMostItsCapacity()
    {
        ResourceCache cache(2);
        for (const char *name : {"a", "b", "c"})
            QVERIFY(cache.get(*m_reader, ResourceKey{s("Queue"), s(name)}));
        QCOMPARE(cache.size(), 2);
        QVERIFY(!cache.get(*m_reader, ResourceKey{s("Queue"), s("absent")}));
        QCOMPARE(cache.size(), 2);
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_writer;
    std::unique_ptr<Workspace> m_reader;
};

QTEST_GUILESS_MAIN(tst_ResourceCache)
#include "tst_resourcecache.moc"
