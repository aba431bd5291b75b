// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"
#include "resourcekey.h"

#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <optional>

namespace converge {

class KindRegistry;

/// Checks the spec editor's text as it is typed: parsed and validated as a single manifest of
/// the edited resource, whose kind and name must stay the same, and whose immutable fields must
/// stay as the backend resource was made (ImmutableFields).
///
/// A check starts once typing pauses for delay() and runs on a thread of the validator's own,
/// so that a large paste never stalls the GUI thread; while one runs, only the newest text is
/// checked after it. Only the result for the newest text is reported.
class SpecValidator final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecValidator)

public:
    struct Result
    {
        quint64 serial = 0; ///< which schedule() call this answers
        ResourceKey key;
        bool ok = false;
        int line = 0; ///< 1-based; 0 when the problem has no place
        int column = 0;
        QString path; ///< the field, e.g. spec.replicas; empty for syntax errors
        QString message;
        Resource resource; ///< the validated object (defaults filled in) when ok

        /// "line:column: path: message", as shown under the editor.
        QString toString() const;
    };

    /// Checks `text` as the manifest of `key`, stored as `stored` (when known). Thread-safe:
    /// reads `kinds` only.
    static Result check(const KindRegistry &kinds, const ResourceKey &key, const QString &text,
                        const std::optional<Resource> &stored = std::nullopt);

    /// `kinds` is not owned and must outlive the validator.
    explicit SpecValidator(const KindRegistry &kinds, QObject *parent = nullptr);
    /// Drops a pending check and waits for the one running.
    ~SpecValidator() override;

    void setDelay(int milliseconds) { m_timer.setInterval(milliseconds); }
    int delay() const { return m_timer.interval(); }

    /// Checks `text` once typing pauses; replaces any text given before. Returns its serial.
    quint64 schedule(const ResourceKey &key, const QString &text,
                     const std::optional<Resource> &stored = std::nullopt);
    /// Forgets the scheduled text: nothing is reported until the next schedule().
    void cancel();
    /// Whether the newest scheduled text still waits for its result.
    bool isPending() const { return m_pending; }
    /// Whether a check runs on the validator's thread now (for any text).
    bool isChecking() const { return m_running; }

Q_SIGNALS:
    /// The result for the newest scheduled text.
    void finished(const converge::SpecValidator::Result &result);

private:
    void start();

    const KindRegistry &m_kinds;
    QTimer m_timer;
    QThreadPool m_pool;
    ResourceKey m_key;
    QString m_text;
    std::optional<Resource> m_stored;
    quint64 m_serial = 0;
    bool m_pending = false;
    bool m_running = false;
};

} // namespace converge
