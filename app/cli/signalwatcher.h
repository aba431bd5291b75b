// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QSocketNotifier;

namespace converge {

/// Turns SIGINT and SIGTERM into a Qt signal on the thread that created the watcher, through a
/// self-pipe: the handler only writes a byte, a QSocketNotifier reads it in the event loop.
///
/// At most one watcher exists at a time (the handler needs the pipe in a static); the previous
/// handlers come back when it is destroyed, so that Ctrl-C kills a command blocked outside an
/// event loop (reading standard input) as usual. On Windows it does nothing.
class SignalWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SignalWatcher)

public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

    bool isValid() const { return m_notifier != nullptr; }

Q_SIGNALS:
    /// SIGINT or SIGTERM arrived (the number is the signal's).
    void signalled(int signal);

private:
    void readPipe();

    QSocketNotifier *m_notifier = nullptr; // child of this
};

} // namespace converge
