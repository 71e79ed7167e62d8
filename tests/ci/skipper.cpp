// A QtTest whose outcome its environment chooses, for tst_qtestrun: BPFLENS_SKIPPER=pass, skip
// (one function skips with BPFLENS_SKIPPER_REASON) or fail.
#include <QTest>

class Skipper : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void passes() { QVERIFY(true); }
    void dependsOnTheEnvironment()
    {
        const QByteArray mode = qgetenv("BPFLENS_SKIPPER");
        if (mode == "skip")
            QSKIP(qgetenv("BPFLENS_SKIPPER_REASON").constData());
        QVERIFY2(mode != "fail", "told to fail");
    }
};

QTEST_GUILESS_MAIN(Skipper)
#include "skipper.moc"
