// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "controllerlock.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

class tst_ControllerLock final : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_workspace = m_dir->filePath(QStringLiteral("a.converge"));
    }

    void lockPath()
    {
        QCOMPARE(ControllerLock::lockPath(m_workspace), m_workspace + QStringLiteral(".lock"));
    }

    void oneHolderAtATime()
    {
        ControllerLock first(m_workspace);
        ControllerLock second(m_workspace);
        QVERIFY(!first.isLocked());
        QVERIFY(first.tryLock());
        QVERIFY(first.isLocked());
        QVERIFY(first.tryLock()); // holding it already is fine
        QVERIFY(QFile::exists(ControllerLock::lockPath(m_workspace)));

        QVERIFY(!second.tryLock());
        QVERIFY(!second.isLocked());
        QCOMPARE(second.ownerPid(), QCoreApplication::applicationPid());
        QVERIFY2(second.errorString().contains(QString::number(QCoreApplication::applicationPid())),
                 qPrintable(second.errorString()));

        first.unlock();
        QVERIFY(!QFile::exists(ControllerLock::lockPath(m_workspace)));
        QVERIFY(second.tryLock());
    }

    void releasedByTheDestructor()
    {
        {
            ControllerLock held(m_workspace);
            QVERIFY(held.tryLock());
        }
        ControllerLock next(m_workspace);
        QVERIFY(next.tryLock());
    }

    void otherWorkspacesAreIndependent()
    {
        ControllerLock a(m_workspace);
        ControllerLock b(m_dir->filePath(QStringLiteral("b.converge")));
        QVERIFY(a.tryLock());
        QVERIFY(b.tryLock());
    }

    void aDeadOwnerIsTakenOver()
    {
        // A process that exited without unlocking (killed): its PID is gone.
        QProcess child;
        child.start(QStringLiteral("sleep"), {QStringLiteral("0.1")});
        QVERIFY(child.waitForStarted());
        const qint64 deadPid = child.processId();
        QVERIFY(child.waitForFinished());
        QFile file(ControllerLock::lockPath(m_workspace));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::number(deadPid) + "\nconverge\n\n");
        file.close();

        ControllerLock lock(m_workspace);
        QVERIFY2(lock.tryLock(), qPrintable(lock.errorString()));
        QCOMPARE(lock.ownerPid(), QCoreApplication::applicationPid());
    }

    void aLiveOwnerIsNotTakenOverHoweverOld()
    {
        ControllerLock held(m_workspace);
        QVERIFY(held.tryLock());
        // QLockFile's default would call a 30 s old lock stale; the controller runs for hours.
        QFile file(ControllerLock::lockPath(m_workspace));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTime().addDays(-2),
                                 QFileDevice::FileModificationTime));
        file.close();
        ControllerLock other(m_workspace);
        QVERIFY(!other.tryLock());
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_workspace;
};

QTEST_GUILESS_MAIN(tst_ControllerLock)
#include "tst_controllerlock.moc"
