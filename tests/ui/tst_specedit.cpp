// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The spec editor's parts: the YAML highlighter's line scanner, the validator (what it says
// and where, and that a large text is checked off the GUI thread), and the editor's diagnostic
// marker, cursor placement and indentation keys.
#include "specedit.h"

#include "kindregistry.h"
#include "specvalidator.h"
#include "testkinds.h"
#include "yamlhighlighter.h"

#include <QElapsedTimer>
#include <QPalette>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QTimer>

using namespace converge;
using namespace converge::test;

namespace {

using Token = YamlHighlighter::Token;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const ResourceKey w1{QStringLiteral("Widget"), QStringLiteral("w1")};

// "start+length=token" per span, e.g. "0+4=key 6+3=string".
QString describe(const QList<YamlHighlighter::Span> &spans)
{
    static const char *names[] = {"key", "string", "number", "keyword", "comment", "marker"};
    QStringList parts;
    for (const YamlHighlighter::Span &span : spans)
        parts << s("%1+%2=%3")
                     .arg(span.start)
                     .arg(span.length)
                     .arg(QLatin1String(names[int(span.token)]));
    return parts.join(QLatin1Char(' '));
}

QString manifest(const QString &specLines)
{
    return s("apiVersion: test.converge.dev/v1\n"
             "kind: Widget\n"
             "metadata:\n"
             "  name: w1\n"
             "spec:\n"
             "  owner:\n"
             "    name: g\n") +
           specLines;
}

// Turns the event loop until the validator has started its check, and not one turn more: a
// small text is checked in a moment, and its result must not have been delivered yet.
bool startChecking(const SpecValidator &validator)
{
    QElapsedTimer waited;
    waited.start();
    while (!validator.isChecking() && waited.elapsed() < 5000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
    return validator.isChecking();
}

} // namespace

class tst_SpecEdit final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerTestKinds(m_kinds); }

    void scan_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("stateIn");
        QTest::addColumn<QString>("spans");
        QTest::addColumn<int>("stateOut");

        QTest::newRow("key and string")
            << s("name: invoices") << -1 << s("0+4=key 6+8=string") << -1;
        QTest::newRow("indented key, number")
            << s("  replicas: 3") << -1 << s("2+8=key 12+1=number") << -1;
        QTest::newRow("float") << s("ratio: -1.5e3") << -1 << s("0+5=key 7+6=number") << -1;
        QTest::newRow("boolean") << s("enabled: true") << -1 << s("0+7=key 9+4=keyword") << -1;
        QTest::newRow("null ~") << s("x: ~") << -1 << s("0+1=key 3+1=keyword") << -1;
        QTest::newRow("yes is a string (as the parser reads it)")
            << s("x: yes") << -1 << s("0+1=key 3+3=string") << -1;
        QTest::newRow("quoted number is a string")
            << s("x: \"123\"") << -1 << s("0+1=key 3+5=string") << -1;
        QTest::newRow("single quotes with '' inside")
            << s("x: 'it''s' # c") << -1 << s("0+1=key 3+7=string 11+3=comment") << -1;
        QTest::newRow("escaped quote") << s("x: \"a\\\"b\"") << -1 << s("0+1=key 3+6=string") << -1;
        QTest::newRow("quoted key") << s("\"a.b\": c") << -1 << s("0+5=key 7+1=string") << -1;
        QTest::newRow("comment line") << s("# all of it") << -1 << s("0+11=comment") << -1;
        QTest::newRow("trailing comment")
            << s("a: b # note") << -1 << s("0+1=key 3+1=string 5+6=comment") << -1;
        QTest::newRow("hash inside a value is not a comment")
            << s("a: b#c") << -1 << s("0+1=key 3+3=string") << -1;
        QTest::newRow("document start") << s("---") << -1 << s("0+3=marker") << -1;
        QTest::newRow("document end") << s("...") << -1 << s("0+3=marker") << -1;
        QTest::newRow("--- with a comment")
            << s("--- # two") << -1 << s("0+3=marker 4+5=comment") << -1;
        QTest::newRow("not a marker") << s("---x") << -1 << s("0+4=string") << -1;
        QTest::newRow("sequence of scalars") << s("  - 42") << -1 << s("4+2=number") << -1;
        QTest::newRow("sequence of maps") << s("  - key: a") << -1 << s("4+3=key 9+1=string") << -1;
        QTest::newRow("url with colon is a value")
            << s("url: http://x:1/a") << -1 << s("0+3=key 5+12=string") << -1;
        QTest::newRow("flow map") << s("owner: {name: g, n: 2}") << -1
                                  << s("0+5=key 8+4=key 14+1=string 17+1=key 20+1=number") << -1;
        QTest::newRow("flow list")
            << s("t: [a, 1, true]") << -1 << s("0+1=key 4+1=string 7+1=number 10+4=keyword") << -1;
        QTest::newRow("literal block starts")
            << s("  content: |") << -1 << s("2+7=key 11+1=keyword") << 3;
        QTest::newRow("block with indicators")
            << s("text: >-") << -1 << s("0+4=key 6+2=keyword") << 1;
        QTest::newRow("inside a block: all string")
            << s("    a: 1 # not a comment") << 3 << s("4+20=string") << 3;
        QTest::newRow("blank line stays in the block") << s("") << 3 << QString() << 3;
        QTest::newRow("a less indented line ends the block")
            << s("  next: 2") << 3 << s("2+4=key 8+1=number") << -1;
        QTest::newRow("root block after ---")
            << s("--- |") << -1 << s("0+3=marker 4+1=keyword") << 0;
        QTest::newRow("--- ends a root block") << s("---") << 0 << s("0+3=marker") << -1;
        QTest::newRow("anchor and alias")
            << s("a: &x 1") << -1 << s("0+1=key 3+2=keyword 6+1=number") << -1;
    }

    void scan()
    {
        QFETCH(QString, line);
        QFETCH(int, stateIn);
        QFETCH(QString, spans);
        QFETCH(int, stateOut);
        int state = stateIn;
        QCOMPARE(describe(YamlHighlighter::scan(line, &state)), spans);
        QCOMPARE(state, stateOut);
    }

    void highlighterColoursTheDocument()
    {
        SpecEdit edit;
        edit.setPlainText(s("spec:\n  replicas: 3\n  text: |\n    a: 1\n# done"));
        YamlHighlighter *h = edit.highlighter();
        QVERIFY(h);
        auto formatAt = [&edit](int block, int column) {
            const QTextBlock b = edit.document()->findBlockByNumber(block);
            for (const QTextLayout::FormatRange &r : b.layout()->formats())
                if (column >= r.start && column < r.start + r.length)
                    return r.format;
            return QTextCharFormat();
        };
        QCOMPARE(formatAt(1, 2).foreground(), h->format(Token::Key).foreground());
        QCOMPARE(formatAt(1, 12).foreground(), h->format(Token::Number).foreground());
        // The block scalar's content is a string, whatever it looks like.
        QCOMPARE(formatAt(3, 4).foreground(), h->format(Token::String).foreground());
        QCOMPARE(formatAt(4, 0).foreground(), h->format(Token::Comment).foreground());
        QVERIFY(h->format(Token::Key).foreground() != h->format(Token::String).foreground());
    }

    void check_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("message"); // Result::toString(), or a part of it

        QTest::newRow("valid") << manifest(s("  replicas: 2\n")) << true << QString();
        QTest::newRow("out of range at its line")
            << manifest(s("  replicas: 11\n")) << false << s("8:3: spec.replicas: ");
        QTest::newRow("enum") << manifest(s("  publicAccess: public\n")) << false
                              << s("8:3: spec.publicAccess: \"public\" is not one of None, Blob, "
                                   "Container");
        QTest::newRow("unknown field")
            << manifest(s("  replica: 2\n")) << false << s("8:3: spec.replica: ");
        QTest::newRow("syntax error")
            << manifest(s("  replicas: 1\n  tags: [a\n")) << false << s(": invalid YAML: ");
        QTest::newRow("a secret inline")
            << manifest(s("  accountKey: hunter2\n")) << false << s("8:3: spec.accountKey: ");
        QTest::newRow("renamed") << manifest(QString()).replace(s("name: w1"), s("name: w2"))
                                 << false << s("4:1: metadata.name: must stay w1");
        QTest::newRow("another kind")
            << manifest(QString()).replace(s("kind: Widget"), s("kind: Gadget")) << false
            << s("2:1: kind: must stay Widget");
        QTest::newRow("another kind, quoted")
            << manifest(QString()).replace(s("kind: Widget"), s("kind: \"Gadget\"")) << false
            << s("2:1: kind: must stay Widget");
        QTest::newRow("two documents")
            << manifest(s("---\n")) + manifest(QString()).replace(s("name: w1"), s("name: w2"))
            << false << s("9:1: the editor holds one resource");
        QTest::newRow("the same one twice") << manifest(s("---\n")) + manifest(QString()) << false
                                            << s("9:1: Widget/w1 is declared twice");
        QTest::newRow("empty") << s("  \n") << false << s("1:1: the manifest is empty");
        QTest::newRow("only a comment") << s("# nothing\n") << false << s("declares nothing");
    }

    void highlighterFollowsTheEditorsPalette()
    {
        // A theme chosen while the window runs: the keys turn light on a dark base, and back.
        QPlainTextEdit edit;
        edit.setPlainText(QStringLiteral("key: value\n"));
        auto *h = new YamlHighlighter(edit.document(), &edit);
        const auto keyLightness = [h] {
            return h->format(Token::Key).foreground().color().lightness();
        };
        const auto keyShownLightness = [&edit] {
            const QTextBlock block = edit.document()->firstBlock();
            for (const QTextLayout::FormatRange &r : block.layout()->formats()) {
                if (r.start == 0)
                    return r.format.foreground().color().lightness();
            }
            return -1;
        };
        QPalette dark = edit.palette();
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        edit.setPalette(dark);
        QVERIFY(keyLightness() > 128);
        QCOMPARE(keyShownLightness(), keyLightness()); // coloured again, not only chosen
        QPalette light = edit.palette();
        light.setColor(QPalette::Base, Qt::white);
        edit.setPalette(light);
        QVERIFY(keyLightness() < 128);
        QCOMPARE(keyShownLightness(), keyLightness());
    }

    void check()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, message);
        const SpecValidator::Result r = SpecValidator::check(m_kinds, w1, text);
        QVERIFY2(r.ok == ok, qPrintable(r.toString()));
        QCOMPARE(r.key, w1);
        if (ok) {
            QCOMPARE(r.resource.key(), w1);
            QVERIFY(r.toString().isEmpty());
        } else {
            QVERIFY2(r.toString().contains(message), qPrintable(r.toString()));
            QVERIFY(r.line > 0);
        }
    }

    void aFieldTheBackendCannotChangeIsMarked()
    {
        // w1 exists in the backend as "first": a new azureName would be a second backend
        // resource, so the editor marks the field and Apply stays off, as apply refuses it.
        Resource stored;
        stored.apiVersion = testApiVersion();
        stored.kind = w1.kind;
        stored.metadata.name = w1.name;
        stored.spec = QJsonObject{{s("owner"), QJsonObject{{s("name"), s("g")}}},
                                  {s("azureName"), s("first")}};
        stored.status.observed = QJsonObject{{s("spec"), stored.spec}};
        const SpecValidator::Result same =
            SpecValidator::check(m_kinds, w1, manifest(s("  azureName: first\n")), stored);
        QVERIFY2(same.ok, qPrintable(same.toString()));
        const SpecValidator::Result renamed = SpecValidator::check(
            m_kinds, w1, manifest(s("  replicas: 2\n  azureName: second\n")), stored);
        QVERIFY(!renamed.ok);
        QCOMPARE(renamed.line, 9);
        QCOMPARE(renamed.column, 3);
        QCOMPARE(renamed.path, s("spec.azureName"));
        QVERIFY2(
            renamed.message.startsWith(s("cannot change after creation (\"first\" → \"second\")")),
            qPrintable(renamed.message));
        // Without the stored resource (a new one) the same text is a valid manifest.
        QVERIFY(SpecValidator::check(m_kinds, w1, manifest(s("  azureName: second\n"))).ok);
    }

    void onlyTheNewestTextIsReported()
    {
        SpecValidator validator(m_kinds);
        validator.setDelay(20);
        QSignalSpy finished{&validator, &SpecValidator::finished};
        QVERIFY(finished.isValid());
        validator.schedule(w1, manifest(s("  replicas: 11\n")));
        const quint64 last = validator.schedule(w1, manifest(s("  replicas: 2\n")));
        QVERIFY(validator.isPending());
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.size(), 1);
        const auto r = finished.first().first().value<SpecValidator::Result>();
        QCOMPARE(r.serial, last);
        QVERIFY(r.ok);
        QVERIFY(!validator.isPending());

        // A text given while an older one is being checked: the older result is dropped and
        // the newest is checked after it. The older text takes a while to check, so that the
        // window in which it runs is wide.
        QString entries;
        for (int i = 0; i < 3000; ++i)
            entries += s("    k%1: v\n").arg(i);
        const QString slow = manifest(s("  replicas: 11\n  metadata:\n") + entries);
        finished.clear();
        validator.setDelay(0);
        validator.schedule(w1, slow);
        QVERIFY(startChecking(validator));
        const quint64 newest = validator.schedule(w1, manifest(s("  replicas: 3\n")));
        QTRY_COMPARE(finished.size(), 1);
        const auto n = finished.first().first().value<SpecValidator::Result>();
        QCOMPARE(n.serial, newest);
        QVERIFY2(n.ok, qPrintable(n.toString()));
        QTRY_VERIFY(!validator.isChecking());
        QCOMPARE(finished.size(), 1);

        // Cancelled while checking: nothing comes.
        finished.clear();
        validator.schedule(w1, slow);
        QVERIFY(startChecking(validator));
        validator.cancel();
        QTRY_VERIFY(!validator.isChecking());
        QCoreApplication::processEvents();
        QCOMPARE(finished.size(), 0);
    }

    // A 1 MB text is checked off the GUI thread: the event loop keeps turning meanwhile.
    void aLargeTextDoesNotStallTheGuiThread()
    {
        QString lines;
        int entries = 0;
        while (lines.size() < (1 << 20)) {
            lines += s("    k%1: %2\n").arg(entries).arg(QString(40, QLatin1Char('v')));
            ++entries;
        }
        const QString text = manifest(s("  metadata:\n") + lines);
        QVERIFY(text.size() >= (1 << 20));

        SpecValidator validator(m_kinds);
        validator.setDelay(0);
        QSignalSpy finished{&validator, &SpecValidator::finished};
        QElapsedTimer clock;
        clock.start();
        qint64 last = 0;
        qint64 longestGap = 0;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            longestGap = std::max(longestGap, now - last);
            last = now;
        });
        ticker.start();
        validator.schedule(w1, text);
        QVERIFY(finished.wait(60000));
        const qint64 checked = clock.elapsed();
        ticker.stop();
        const auto r = finished.first().first().value<SpecValidator::Result>();
        QVERIFY2(r.ok, qPrintable(r.toString()));
        QCOMPARE(r.resource.spec.value(s("metadata")).toObject().size(), entries);
        qInfo("1 MB manifest (%d map entries): checked in %lld ms off the GUI thread; longest "
              "GUI-thread gap meanwhile %lld ms",
              entries, checked, longestGap);
        // Were the check on the GUI thread, the gap would be the whole check; a loaded machine
        // adds scheduling noise, so the bound is relative.
        QVERIFY2(longestGap * 4 < checked, qPrintable(QString::number(longestGap)));

        // Pasting it into the editor: the highlighter scans it once, on the GUI thread.
        SpecEdit edit;
        QElapsedTimer paste;
        paste.start();
        edit.setPlainText(text);
        qInfo("1 MB set into the editor (highlighted): %lld ms", paste.elapsed());
        paste.restart();
        edit.goTo(edit.blockCount() / 2, 1);
        QTest::keyClicks(&edit, s("x"));
        qInfo("a keystroke in the middle of it: %lld ms", paste.elapsed());
    }

    void diagnosticMarksItsLine()
    {
        SpecEdit edit;
        edit.setPlainText(s("a: 1\nspec:\n  replicas: 11\n"));
        QVERIFY(edit.extraSelections().isEmpty());
        edit.setDiagnostic(3, 3, s("3:3: spec.replicas: too many"));
        QCOMPARE(edit.diagnosticLine(), 3);
        const QList<QTextEdit::ExtraSelection> selections = edit.extraSelections();
        QCOMPARE(selections.size(), 2);
        const QTextEdit::ExtraSelection &wave = selections.at(1);
        QCOMPARE(wave.format.underlineStyle(), QTextCharFormat::WaveUnderline);
        QCOMPARE(wave.cursor.block().blockNumber(), 2);
        QCOMPARE(wave.cursor.selectionStart() - wave.cursor.block().position(), 2);
        QCOMPARE(wave.cursor.selectedText(), s("replicas: 11"));
        QVERIFY(selections.at(0).format.property(QTextFormat::FullWidthSelection).toBool());

        // A column beyond the text underlines the whole line.
        edit.setDiagnostic(1, 40, s("x"));
        QCOMPARE(edit.extraSelections().at(1).cursor.selectedText(), s("a: 1"));

        edit.clearDiagnostic();
        QCOMPARE(edit.diagnosticLine(), 0);
        QVERIFY(edit.extraSelections().isEmpty());
    }

    void replacingTheTextKeepsTheMarkersCursorsRegistered()
    {
        // QPlainTextEdit::setPlainText(QString()) calls QTextDocument::clear(), which keeps the
        // document's cursors aside while it emits blockCountChanged(). Selections replaced from
        // that signal were freed while clear() put their old cursors back, and made new ones
        // the document did not know (found by tst_windowsoak; valgrind showed the writes into
        // freed cursors). A cursor the document knows moves with an edit made before it.
        SpecEdit edit;
        edit.setPlainText(s("a: 1\nspec:\n  replicas: 11\n"));
        edit.setDiagnostic(1, 1, s("1:1: a: unknown field"));
        QCOMPARE(edit.extraSelections().size(), 2);
        for (const QString &text : {QString(), s("b: 2\n"), QString()}) {
            edit.setPlainText(text);
            QTextCursor(edit.document()).insertText(s("moved\n"));
            for (const QTextEdit::ExtraSelection &selection : edit.extraSelections())
                QVERIFY2(selection.cursor.position() > 0,
                         "a marker's cursor did not move with the edit: the document has lost it");
            QCoreApplication::processEvents(); // the markers follow the new blocks
            QCOMPARE(edit.extraSelections().size(), 2);
            QCOMPARE(edit.extraSelections().at(0).cursor.block().blockNumber(), 0);
        }
    }

    void goToPlacesTheCursor()
    {
        SpecEdit edit;
        edit.setPlainText(s("a: 1\nspec:\n  replicas: 11\n"));
        edit.goTo(3, 5);
        QCOMPARE(edit.textCursor().blockNumber(), 2);
        QCOMPARE(edit.textCursor().positionInBlock(), 4);
        edit.goTo(99, 99); // clamped
        QCOMPARE(edit.textCursor().blockNumber(), edit.blockCount() - 1);
    }

    void gutterGrowsWithTheLineCount()
    {
        SpecEdit edit;
        edit.setPlainText(s("a: 1\n"));
        const int narrow = edit.gutterWidth();
        QString many;
        for (int i = 0; i < 1200; ++i)
            many += s("a%1: 1\n").arg(i);
        edit.setPlainText(many);
        QVERIFY(edit.gutterWidth() > narrow);
        QCOMPARE(edit.viewport()->geometry().left(), edit.gutterWidth() + edit.frameWidth());
    }

    void tabInsertsSpacesAndReturnKeepsIndentation()
    {
        SpecEdit edit;
        edit.setPlainText(s("spec:\n  owner:"));
        edit.goTo(2, 100);
        QTest::keyClick(&edit, Qt::Key_Return);
        QTest::keyClick(&edit, Qt::Key_Tab);
        QTest::keyClicks(&edit, s("name: g"));
        QCOMPARE(edit.toPlainText(), s("spec:\n  owner:\n    name: g"));
        QVERIFY(!edit.toPlainText().contains(QLatin1Char('\t')));
    }

private:
    KindRegistry m_kinds;
};

QTEST_MAIN(tst_SpecEdit)
#include "tst_specedit.moc"
