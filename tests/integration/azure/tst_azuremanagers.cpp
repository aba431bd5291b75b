// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The Azure Managers called directly against Azurite: create/get/update/delete per kind,
// "already exists" adoption, names refused before any request, list pages with continuation,
// and claiming a container made outside Converge (its listed spec, stored as desired, gives an
// empty Delta and no writes).
#include "azureintegration.h"
#include "delta.h"

using namespace converge;
using namespace converge::test;
using Category = BackendError::Category;

class tst_AzureManagers final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    std::unique_ptr<DirectAccess> m_direct;
    RequestCounter m_requests;

    QString name(const QString &what) const { return uniqueStem() + what; }

    std::shared_ptr<Manager> manager(const QString &kind) { return m_direct->manager(kind); }

    Resource container(const QString &n, const QJsonObject &extra = {})
    {
        return azureResource(AzureKinds::blobContainer(), n,
                             ownedBy(m_direct->account.metadata.name, extra));
    }

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
        AzureFactory::Options options;
        options.requestObserver = m_requests.observer();
        m_direct = std::make_unique<DirectAccess>(m_emulators, options);
    }

    void account()
    {
        auto m = manager(AzureKinds::storageAccount());
        const Target t = m_direct->target(m_direct->account, {});
        const Outcome<Observation> seen = m->get(t);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QVERIFY(!seen.value().requestId.isEmpty());
        const QStringList delta = Delta::between(AzureKinds::storageAccountKind().spec,
                                                 t.resource.spec, seen.value().spec);
        QVERIFY2(delta.isEmpty(), qPrintable(delta.join(QLatin1Char(','))));
        QVERIFY(m->deleteResource(t, seen.value()));
        QVERIFY(!m->deleteResource(t, seen.value()).value()); // gone at once, nothing sent
        QVERIFY(m->list({}).value().items.isEmpty());
    }

    void containerLifecycle()
    {
        auto m = manager(AzureKinds::blobContainer());
        const QString n = name(QStringLiteral("-life"));
        Target t = m_direct->target(
            container(n, {{QStringLiteral("metadata"),
                           QJsonObject{{QStringLiteral("Team"), QStringLiteral("billing")}}},
                          {QStringLiteral("publicAccess"), QStringLiteral("Blob")}}));
        Outcome<Observation> seen = m->get(t);
        QVERIFY(!seen);
        QCOMPARE(seen.error().category, Category::NotFound);
        QCOMPARE(seen.error().code, QStringLiteral("ContainerNotFound"));
        QVERIFY(!seen.error().requestId.isEmpty());

        seen = m->create(t);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QCOMPARE(seen.value().name, n);
        QVERIFY(seen.value().resourceId.endsWith(QStringLiteral("/devstoreaccount1/") + n));
        QCOMPARE(seen.value().spec.value(QStringLiteral("publicAccess")).toString(),
                 QStringLiteral("Blob"));
        QCOMPARE(Delta::between(m_direct->kinds.find(QStringLiteral("BlobContainer"))->spec,
                                t.resource.spec, seen.value().spec),
                 QStringList());

        // Update both: metadata and public access.
        t.resource.spec.insert(QStringLiteral("metadata"),
                               QJsonObject{{QStringLiteral("Team"), QStringLiteral("sales")},
                                           {QStringLiteral("cost"), QStringLiteral("42")}});
        t.resource.spec.insert(QStringLiteral("publicAccess"), QStringLiteral("Container"));
        const FieldSchema &schema = m_direct->kinds.find(QStringLiteral("BlobContainer"))->spec;
        const QStringList delta = Delta::between(schema, t.resource.spec, seen.value().spec);
        QCOMPARE(delta, QStringList({QStringLiteral("spec.publicAccess"),
                                     QStringLiteral("spec.metadata.Team"),
                                     QStringLiteral("spec.metadata.cost")}));
        seen = m->update(t, seen.value(), delta);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QCOMPARE(Delta::between(schema, t.resource.spec, seen.value().spec), QStringList());

        // Creating again adopts it.
        seen = m->create(t);
        QVERIFY(seen);
        QCOMPARE(seen.value().spec.value(QStringLiteral("publicAccess")).toString(),
                 QStringLiteral("Container"));

        const Outcome<std::optional<Observation>> deleted = m->deleteResource(t, seen.value());
        QVERIFY(deleted);
        QVERIFY(!deleted.value());
        QCOMPARE(m->get(t).error().category, Category::NotFound);
        // Deleting what is gone is not an error.
        QVERIFY(m->deleteResource(t, seen.value()));
    }

    void adoptionFixesDifferences()
    {
        auto m = manager(AzureKinds::blobContainer());
        const QString n = name(QStringLiteral("-adopt"));
        Target first = m_direct->target(container(n));
        QVERIFY(m->create(first));
        Target second = m_direct->target(
            container(n, {{QStringLiteral("metadata"),
                           QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}}}));
        const Outcome<Observation> seen = m->create(second);
        QVERIFY(seen);
        QCOMPARE(seen.value().spec.value(QStringLiteral("metadata")).toObject(),
                 (QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}));
        QVERIFY(m->deleteResource(second, seen.value()));
    }

    void badNamesAreRefusedBeforeAnyRequest_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("metadataName");
        QTest::newRow("container") << AzureKinds::blobContainer() << "has.dots";
        QTest::newRow("queue") << AzureKinds::queue() << "a--b";
        QTest::newRow("table") << AzureKinds::table() << "my-table";
    }

    void badNamesAreRefusedBeforeAnyRequest()
    {
        QFETCH(QString, kind);
        QFETCH(QString, metadataName);
        auto m = manager(kind);
        const Target t = m_direct->target(
            azureResource(kind, metadataName, ownedBy(QStringLiteral("devstore"))));
        const int before = m_requests.total;
        for (const Outcome<Observation> &o : {m->get(t), m->create(t)}) {
            QVERIFY(!o);
            QCOMPARE(o.error().category, Category::Invalid);
            QVERIFY2(o.error().message.contains(QLatin1String("metadata.name")),
                     qPrintable(o.error().message));
        }
        QCOMPARE(m_requests.total.load(), before);
    }

    void queueLifecycle()
    {
        auto m = manager(AzureKinds::queue());
        const QString n = name(QStringLiteral("-q"));
        Target t = m_direct->target(azureResource(
            AzureKinds::queue(), n,
            ownedBy(QStringLiteral("devstore"),
                    {{QStringLiteral("metadata"),
                      QJsonObject{{QStringLiteral("Owner"), QStringLiteral("ann")}}}})));
        QCOMPARE(m->get(t).error().category, Category::NotFound);
        Outcome<Observation> seen = m->create(t);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        const FieldSchema &schema = m_direct->kinds.find(QStringLiteral("Queue"))->spec;
        QCOMPARE(Delta::between(schema, t.resource.spec, seen.value().spec), QStringList());
        // Same metadata: 204, still found.
        QVERIFY(m->create(t));
        // Other metadata: 409 QueueAlreadyExists, adopted and corrected.
        t.resource.spec.insert(QStringLiteral("metadata"),
                               QJsonObject{{QStringLiteral("Owner"), QStringLiteral("bob")}});
        seen = m->create(t);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QCOMPARE(Delta::between(schema, t.resource.spec, seen.value().spec), QStringList());
        QVERIFY(m->deleteResource(t, seen.value()));
        QCOMPARE(m->get(t).error().category, Category::NotFound);
    }

    void tableLifecycle()
    {
        auto m = manager(AzureKinds::table());
        const QString n = name(QStringLiteral("Tab"));
        const Target t = m_direct->target(
            azureResource(AzureKinds::table(), QStringLiteral("tab"),
                          ownedBy(QStringLiteral("devstore"), {{QStringLiteral("azureName"), n}})));
        const Outcome<Observation> missing = m->get(t);
        QVERIFY(!missing);
        QCOMPARE(missing.error().category, Category::NotFound);
        Outcome<Observation> seen = m->create(t);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QCOMPARE(seen.value().spec.value(QStringLiteral("azureName")).toString(), n);
        seen = m->create(t); // TableAlreadyExists: found
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QVERIFY(m->deleteResource(t, seen.value()));
        QCOMPARE(m->get(t).error().category, Category::NotFound);
    }

    void listPages_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("containers") << AzureKinds::blobContainer();
        QTest::newRow("queues") << AzureKinds::queue();
        QTest::newRow("tables") << AzureKinds::table();
        QTest::newRow("blobs") << AzureKinds::blob();
    }

    void listPages()
    {
        QFETCH(QString, kind);
        const QString prefix = name(QStringLiteral("p")) + kind.left(3).toLower();
        AzureFactory::Options options;
        options.listPageSize = 2;
        options.listPrefix = prefix;
        DirectAccess paged(m_emulators, options);
        auto m = paged.manager(kind);
        auto setup =
            m_direct->manager(kind == AzureKinds::blob() ? AzureKinds::blobContainer() : kind);
        QList<Target> made;
        Resource parent;
        if (kind == AzureKinds::blob()) {
            parent = container(prefix + QStringLiteral("parent"));
            QVERIFY(setup->create(m_direct->target(parent)));
            setup = m_direct->manager(kind);
        }
        for (int i = 0; i < 5; ++i) {
            QJsonObject spec = ownedBy(kind == AzureKinds::blob() ? parent.metadata.name
                                                                  : QStringLiteral("devstore"));
            spec.insert(QStringLiteral("azureName"), QString(prefix + QString::number(i)));
            if (kind == AzureKinds::blob())
                spec.insert(QStringLiteral("content"), QString::number(i));
            const Target t = kind == AzureKinds::blob()
                                 ? m_direct->target(azureResource(kind, QStringLiteral("x"), spec),
                                                    {m_direct->account, parent})
                                 : m_direct->target(azureResource(kind, QStringLiteral("x"), spec));
            const Outcome<Observation> created = setup->create(t);
            QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
            made.append(t);
        }
        ListScope scope;
        scope.owners = {paged.account};
        if (kind == AzureKinds::blob())
            scope.owners.append(parent);
        QStringList names;
        int pages = 0;
        do {
            const Outcome<ListPage> page = m->list(scope);
            QVERIFY2(page, qPrintable(page ? QString() : page.error().toString()));
            QVERIFY(page.value().items.size() <= 2);
            for (const Observation &o : page.value().items) {
                names << o.name;
                QCOMPARE(o.spec.value(QStringLiteral("azureName")).toString(), o.name);
                QVERIFY(!o.resourceId.isEmpty());
            }
            scope.continuation = page.value().continuation;
            ++pages;
        } while (!scope.continuation.isEmpty() && pages < 10);
        QCOMPARE(pages, 3);
        names.sort(Qt::CaseInsensitive);
        QStringList expected;
        for (int i = 0; i < 5; ++i)
            expected << prefix + QString::number(i);
        QCOMPARE(names, expected);
        for (const Target &t : std::as_const(made))
            QVERIFY(setup->deleteResource(t, {}));
    }

    void claimAContainerMadeElsewhere()
    {
        // Made by another tool, with metadata and public access.
        const QString n = name(QStringLiteral("-claim"));
        HttpResponse made = m_direct->send(
            AzureAccount::Service::Blob, "PUT", n,
            {{QStringLiteral("restype"), QStringLiteral("container")}},
            {{"x-ms-meta-Project", "apollo"}, {"x-ms-blob-public-access", "container"}});
        QCOMPARE(made.status, 201);

        AzureFactory::Options options;
        options.listPrefix = n;
        options.requestObserver = m_requests.observer();
        DirectAccess lister(m_emulators, options);
        auto m = lister.manager(AzureKinds::blobContainer());
        QVERIFY(m->listIsComplete());
        ListScope scope;
        scope.owners = {lister.account};
        const Outcome<ListPage> page = m->list(scope);
        QVERIFY(page);
        QCOMPARE(page.value().items.size(), 1);
        const Observation &found = page.value().items.first();

        // The listed spec becomes the desired state, with the finalizer, as a claim would store it.
        Resource claimed = azureResource(AzureKinds::blobContainer(), found.name, found.spec);
        claimed.metadata.finalizers << Annotations::finalizer();
        claimed.metadata.annotations.insert(Annotations::resourceId(), found.resourceId);
        QVERIFY(validate(lister.kinds, claimed));
        QCOMPARE(claimed.spec.value(QStringLiteral("publicAccess")).toString(),
                 QStringLiteral("Container"));
        const FieldSchema &schema = lister.kinds.find(QStringLiteral("BlobContainer"))->spec;
        QCOMPARE(Delta::between(schema, claimed.spec, found.spec), QStringList());
        const Target t = lister.target(claimed);
        const Outcome<Observation> seen = m->get(t);
        QVERIFY(seen);
        QCOMPARE(Delta::between(schema, claimed.spec, seen.value().spec), QStringList());

        // And the engine agrees: claimed, Ready, and no write at all.
        AzureEngine engine;
        QVERIFY(engine.apply({emulatorAccount(m_emulators), claimed}));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 15000);
        QTRY_VERIFY(engine.controller->isIdle());
        QCOMPARE(engine.requests.writes.load(), 0);
        QCOMPARE(engine.controller->stats().backendWrites, 0);
        engine.stop();
        QVERIFY(m->deleteResource(t, seen.value()));
    }
};

QTEST_GUILESS_MAIN(tst_AzureManagers)
#include "tst_azuremanagers.moc"
