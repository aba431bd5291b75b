// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "specvalidator.h"

#include "immutablefields.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "workspacerunner.h"

#include <QPromise>
#include <QRegularExpression>

#include <memory>

namespace converge {

namespace {

constexpr int defaultDelayMs = 250;

// The 1-based line of the first line matching `pattern` at or after `fromLine`, or 0.
int lineOf(const QString &text, const QRegularExpression &pattern, int fromLine = 1)
{
    int line = 1;
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = text.size();
        if (line >= fromLine && pattern.match(QStringView(text).mid(start, end - start)).hasMatch())
            return line;
        start = end + 1;
        ++line;
    }
    return 0;
}

SpecValidator::Result failure(const ResourceKey &key, int line, int column, const QString &path,
                              const QString &message)
{
    SpecValidator::Result r;
    r.key = key;
    r.line = line;
    r.column = column;
    r.path = path;
    r.message = message;
    return r;
}

SpecValidator::Result kindChanged(const ResourceKey &key, int line)
{
    return failure(
        key, line, 1, QStringLiteral("kind"),
        SpecValidator::tr("must stay %1 (this editor changes %2; apply a manifest file to "
                          "create another resource)")
            .arg(key.kind, key.toString()));
}

} // namespace

QString SpecValidator::Result::toString() const
{
    QString text;
    if (line > 0)
        text = QString::number(line) + QLatin1Char(':') + QString::number(std::max(1, column)) +
               QStringLiteral(": ");
    if (!path.isEmpty())
        text += path + QStringLiteral(": ");
    return text + message;
}

SpecValidator::Result SpecValidator::check(const KindRegistry &kinds, const ResourceKey &key,
                                           const QString &text,
                                           const std::optional<Resource> &stored)
{
    if (text.trimmed().isEmpty())
        return failure(key, 1, 1, {}, SpecValidator::tr("the manifest is empty"));
    // A changed kind is checked first: against another kind's schema every field would be
    // wrong, and the one thing to say is that the kind must stay.
    static const QRegularExpression kindValue(
        QStringLiteral("^kind\\s*:\\s*[\"']?([^\"'#\\s]*)[\"']?\\s*(#.*)?$"));
    if (const int line = lineOf(text, kindValue); line > 0) {
        const QString value =
            kindValue.match(text.section(QLatin1Char('\n'), line - 1, line - 1)).captured(1);
        if (!value.isEmpty() && value != key.kind)
            return kindChanged(key, line);
    }
    const ManifestReader::Result read =
        ManifestReader(kinds).read(text.toUtf8(), QStringLiteral("spec.yaml"));
    if (!read.ok()) {
        const ManifestError &e = read.errors.first();
        return failure(key, e.location.line, e.location.column, e.path, e.message);
    }
    if (read.objects.isEmpty())
        return failure(key, 1, 1, {}, SpecValidator::tr("the manifest declares nothing"));
    if (read.objects.size() > 1) {
        const SourceLocation &second = read.objects.at(1).location;
        return failure(key, second.line, second.column, {},
                       QStringLiteral("the editor holds one resource; apply a manifest file to "
                                      "add others"));
    }
    const ManifestObject &object = read.objects.first();
    const Resource &r = object.resource;
    // Renaming here would make a second resource and leave this one behind: say so instead.
    if (r.kind != key.kind) {
        static const QRegularExpression kindLine(QStringLiteral("^kind\\s*:"));
        const int line = lineOf(text, kindLine);
        return kindChanged(key, line > 0 ? line : object.location.line);
    }
    if (r.metadata.name != key.name) {
        static const QRegularExpression metadataLine(QStringLiteral("^metadata\\s*:"));
        static const QRegularExpression nameLine(QStringLiteral("^\\s+name\\s*:"));
        const int line = lineOf(text, nameLine, std::max(1, lineOf(text, metadataLine)));
        return failure(key, line > 0 ? line : object.location.line, 1,
                       QStringLiteral("metadata.name"),
                       SpecValidator::tr("must stay %1 (this editor changes %2; apply a manifest "
                                         "file to create another resource)")
                           .arg(key.name, key.toString()));
    }
    // A new name would be a second backend resource, the first left behind: refused here as
    // apply refuses it.
    if (const Kind *kind = kinds.find(r.kind); kind && stored) {
        const QList<ImmutableFields::Change> changes = ImmutableFields::changed(*kind, r, *stored);
        if (!changes.isEmpty()) {
            const SourceLocation where = object.locationOf(changes.first().path);
            return failure(key, where.line, where.column, changes.first().path,
                           ImmutableFields::message(key, changes));
        }
    }
    Result ok;
    ok.key = key;
    ok.ok = true;
    ok.resource = r;
    return ok;
}

SpecValidator::SpecValidator(const KindRegistry &kinds, QObject *parent)
    : QObject(parent)
    , m_kinds(kinds)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(defaultDelayMs);
    connect(&m_timer, &QTimer::timeout, this, &SpecValidator::start);
    m_pool.setObjectName(QStringLiteral("SpecValidator"));
    m_pool.setMaxThreadCount(1);
}

SpecValidator::~SpecValidator()
{
    m_pool.clear();
    m_pool.waitForDone();
}

quint64 SpecValidator::schedule(const ResourceKey &key, const QString &text,
                                const std::optional<Resource> &stored)
{
    m_key = key;
    m_text = text;
    m_stored = stored;
    m_pending = true;
    m_timer.start();
    return ++m_serial;
}

void SpecValidator::cancel()
{
    ++m_serial; // a result on its way is for an older text now
    m_pending = false;
    m_timer.stop();
}

void SpecValidator::start()
{
    if (!m_pending)
        return;
    if (m_running)
        return; // the running check's end starts the newest text
    m_running = true;
    auto promise = std::make_shared<QPromise<Result>>();
    QFuture<Result> future = promise->future();
    promise->start();
    const KindRegistry &kinds = m_kinds; // outlives the validator, which waits for its task
    m_pool.start(
        [promise, &kinds, key = m_key, text = m_text, stored = m_stored, serial = m_serial] {
            Result r = check(kinds, key, text, stored);
            r.serial = serial;
            promise->addResult(std::move(r));
            promise->finish();
        });
    WorkspaceRunner::deliver(future, this, [this](Result result) {
        m_running = false;
        if (result.serial == m_serial && m_pending) {
            m_pending = false;
            Q_EMIT finished(result);
        } else if (m_pending && !m_timer.isActive()) {
            start(); // the text changed while checking and typing has paused since
        }
    });
}

} // namespace converge
