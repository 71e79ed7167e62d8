#pragma once

#include "core/probecatalog.h"
#include "core/records.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QSocketNotifier;

namespace bpflens {

class StreamReader;

// What the main window records through. The real backend asks the privileged helper over
// D-Bus for a stream fd; the window only sees these calls and signals, so it works the same
// with any backend (and with none: isAvailable() false, the reason in a banner).
class Recorder : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual bool isAvailable() const = 0;
    // Why recording is not possible and how to fix it (rich text); empty when available.
    virtual QString unavailableReason() const = 0;
    // A problem worth a banner although recording stays possible (polkit said no the last
    // time: a rule may have been added since). Rich text; empty when there is none.
    virtual QString notice() const { return {}; }
    virtual bool isRecording() const = 0;
    // The ssh destination this recorder records on (docs/remote.md); empty: this computer.
    virtual QString remoteHost() const { return {}; }

    // Exactly one of started/failed follows a start(); after started, exactly one of
    // ended/failed, with batch in between.
    virtual void start(const QList<bpflens::ProbeConfig> &probes) = 0;
    virtual void stop() = 0;

Q_SIGNALS:
    void started(const bpflens::SessionInfo &info);
    void batch(const bpflens::RecordBatch &batch);
    // endMonotonicNs is the recording's end as the helper saw it (0 if unknown).
    void ended(const QString &reason, quint64 endMonotonicNs);
    void failed(const QString &error);
    // isAvailable(), unavailableReason() or notice() changed.
    void availabilityChanged();
    // start() waits on something that may take long (a polkit agent asking for a password);
    // stop() before started/failed cancels it (failed follows).
    void waiting(const QString &message);
    // The backend refused this probe's options; message is its reason.
    void probeRejected(const QString &probeId, const QString &message);
    // What the backend can run on this kernel (the helper's ListProbes).
    void probesListed(const QString &kernelRelease,
                      const QHash<QString, bpflens::ProbeAvailability> &availability);
    // The kernel's tracepoints ("group:name"), for tppair's completer.
    void tracepointsListed(const QStringList &names);
};

// The part of a recorder that needs no D-Bus: reads the helper's stream (docs/protocol.md)
// from a file descriptor and turns its frames into Recorder signals. How a stream is opened
// and stopped is given as functions, so the D-Bus client plugs in here and tests use a pipe.
class StreamRecorder : public Recorder
{
    Q_OBJECT
public:
    // Returns a readable fd the recorder then owns, or -1 with the reason in *error.
    using OpenStream = std::function<int(const QList<ProbeConfig> &probes, QString *error)>;
    // Asks the writer to end the stream; the End frame then finishes the recording.
    using RequestStop = std::function<void()>;

    explicit StreamRecorder(QObject *parent = nullptr);
    ~StreamRecorder() override;

    void setBackend(OpenStream open, RequestStop requestStop);
    // Shown while no backend is set.
    void setUnavailableReason(const QString &reason) { m_unavailable = reason; }

    bool isAvailable() const override { return bool(m_open); }
    QString unavailableReason() const override;
    bool isRecording() const override { return m_fd >= 0; }
    void start(const QList<ProbeConfig> &probes) override;
    // With a backend: asks it to stop and waits for the End frame. Without one (a stream
    // attached directly) the stream is closed and the recording ends here.
    void stop() override;

    // Reads a stream from fd, which this object then owns (closed at the end). False, with
    // failed() emitted, if a recording is already running or fd is not usable.
    bool attach(int fd);

    qint64 framesRead() const;

protected:
    // Stops reading and closes the stream; no signal.
    void finish();
    // failed()'s text when the stream ends without an End frame (why: the reader's account).
    virtual QString brokenStreamMessage(const QString &why) const;
    // The helper's end reasons ("stopped", "caller-left", ...) as the user reads them.
    static QString endReasonText(const QString &reason);

private:
    void readAvailable();
    void deliverMessages();

    OpenStream m_open;
    RequestStop m_requestStop;
    QString m_unavailable;
    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
    std::unique_ptr<StreamReader> m_reader;
    quint64 m_lastTimeNs = 0;
    bool m_started = false;
};

} // namespace bpflens
