// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Every kind the providers register has its own icon in the tree, not the unknown-kind fallback,
// and every bundled kind icon is drawn the one way ThemedIcons can recolour.
#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "themedicons.h"

#include <QDir>
#include <QFile>
#include <QSvgRenderer>
#include <QTest>

using namespace converge;

class tst_KindIcons final : public QObject
{
    Q_OBJECT

private slots:
    void everyKindHasAnIcon_data()
    {
        KindRegistry kinds;
        AzureKinds::registerAll(kinds);
        AwsKinds::registerKinds(kinds);
        GcpKinds::registerKinds(kinds);
        QTest::addColumn<QString>("kind");
        const QStringList names = kinds.names();
        // The declared AWS kinds come from the resources; none read would pass trivially.
        QVERIFY(names.contains(QStringLiteral("SNSTopic")));
        for (const QString &name : names)
            QTest::newRow(qPrintable(name)) << name;
    }

    void everyKindHasAnIcon()
    {
        QFETCH(QString, kind);
        const QString path = QStringLiteral(":/icons/kinds/%1.svg").arg(kind.toLower());
        QVERIFY2(QFile::exists(path), qPrintable(path + QStringLiteral(" is missing")));
        const ThemedIcons icons;
        QVERIFY(!icons.kind(kind).pixmap(16, 16).isNull());
    }

    void bundledIconsShareOneStyle_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(":/icons/kinds"));
        const QStringList files = dir.entryList({QStringLiteral("*.svg")}, QDir::Files);
        QVERIFY(files.size() > 1);
        for (const QString &file : files)
            QTest::newRow(qPrintable(file)) << dir.filePath(file);
    }

    // The tree's style: a 16-unit line drawing stroked in the palette's text colour, no text or
    // raster that would not scale or follow the palette.
    void bundledIconsShareOneStyle()
    {
        QFETCH(QString, path);
        const QByteArray svg = ThemedIcons::colored(path, Qt::black);
        QVERIFY(!svg.isEmpty());
        QVERIFY(QSvgRenderer(svg).isValid());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray source = file.readAll();
        QVERIFY(source.contains(R"(viewBox="0 0 16 16")"));
        QVERIFY(source.contains(R"(stroke="currentColor")"));
        QVERIFY(source.contains(R"(stroke-width="1.2")"));
        QVERIFY(!source.contains("<text"));
        QVERIFY(!source.contains("<image"));
    }
};

QTEST_MAIN(tst_KindIcons)
#include "tst_kindicons.moc"
