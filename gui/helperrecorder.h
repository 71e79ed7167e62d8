#pragma once

#include "gui/recorder.h"

#include <QDBusConnection>

class QProcess;

namespace bpflens {

// The window's real recorder. Normally it records through bpflens-helper on the system bus
// (docs/dbus-api.md): StartSession without blocking the window while a polkit agent asks for a
// password, the stream it hands over read by StreamRecorder, Stop as an asynchronous call.
// When no helper is reachable and this process is root, it runs `bpflens-cli record
// --stream-fd` as a child instead and reads the same stream from a pipe: the window never links
// libbpf, and both ways end the same.
class HelperRecorder : public StreamRecorder
{
    Q_OBJECT
public:
    enum class Backend
    {
        Unknown, // refresh() has not answered yet: start() tries the helper
        Helper,
        Local, // root, no helper: a bpflens-cli child
        None
    };

    explicit HelperRecorder(const QDBusConnection &bus, QObject *parent = nullptr);
    ~HelperRecorder() override;

    // The bpflens-cli the local fallback runs (default: next to this executable).
    void setLocalProgram(const QString &path) { m_localProgram = path; }
    QString localProgram() const { return m_localProgram; }
    // Whether the local fallback may be used (default: when the effective uid is 0).
    void setLocalAllowed(bool allowed) { m_localAllowed = allowed; }

    // Asks the helper, without blocking, what it can run; availabilityChanged, probesListed and
    // tracepointsListed follow. Without a helper, chooses the local fallback or none.
    void refresh();
    Backend backend() const { return m_backend; }
    bool isStarting() const { return m_starting; }

    bool isAvailable() const override { return m_backend != Backend::None; }
    QString unavailableReason() const override;
    QString notice() const override { return m_notice; }
    void start(const QList<ProbeConfig> &probes) override;
    // Before the helper answered StartSession: cancels (failed follows). Recording: Stop.
    void stop() override;

    // What a user reads for a helper error (the D-Bus error name and the helper's message).
    static QString errorText(const QString &name, const QString &message);
    // Polkit's refusal (the helper's NotAuthorized message) as the error box (plain) or the
    // banner (rich text, its first sentence bold) says it.
    static QString notAuthorizedText(const QString &message, bool rich);
    // The probe a helper's InvalidArgs message is about, of those requested; empty if unclear.
    static QString rejectedProbe(const QString &message, const QList<ProbeConfig> &probes);

protected:
    QString brokenStreamMessage(const QString &why) const override;

private Q_SLOTS:
    void sessionEnded(const QString &reason);

private:
    void helperMissing(const QString &reason);
    // Whether a StartSession error says the helper that answered before has gone away.
    bool isGone(const QString &errorName) const;
    // The local fallback's probe availability: `bpflens-cli probes --json` in a child, whose
    // engine checks this kernel as the recording will (the window itself has no libbpf).
    void listLocalProbes();
    void startHelper(const QList<ProbeConfig> &probes);
    void startLocal(const QList<ProbeConfig> &probes);
    void requestStop();
    void unsubscribe();

    QDBusConnection m_bus;
    Backend m_backend = Backend::Unknown;
    QString m_reason; // why nothing can record (Backend::None)
    QString m_notice;
    QString m_localProgram;
    bool m_localAllowed;
    bool m_starting = false;
    bool m_helperAnswered = false; // the helper has answered this process once
    quint64 m_startGeneration = 0; // a StartSession reply of an older generation was cancelled
    QString m_sessionPath;         // the helper's session object while recording through it
    QProcess *m_child = nullptr;   // the local recorder
    QProcess *m_lister = nullptr;  // listLocalProbes()'s child while it runs
};

} // namespace bpflens
