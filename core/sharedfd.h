#pragma once

#include <QMetaType>

#include <memory>

#include <unistd.h>

namespace bpflens {

// An open file descriptor shared by copies, closed when the last copy goes. It carries a file a
// caller opened itself (a binary to attach uprobes to) from the client through D-Bus or the
// CLI's in-process engine to the probe: proof that the caller may read that file.
class SharedFd
{
public:
    SharedFd() = default;
    // Takes ownership of fd (closed by the last copy); a negative fd is none.
    static SharedFd adopt(int fd)
    {
        SharedFd s;
        if (fd >= 0)
            s.m_holder = std::make_shared<Holder>(fd);
        return s;
    }
    bool isValid() const { return m_holder != nullptr; }
    int get() const { return m_holder ? m_holder->fd : -1; }
    bool operator==(const SharedFd &o) const { return m_holder == o.m_holder; }

private:
    struct Holder
    {
        explicit Holder(int f)
            : fd(f)
        {
        }
        ~Holder() { ::close(fd); }
        Holder(const Holder &) = delete;
        Holder &operator=(const Holder &) = delete;
        int fd;
    };
    std::shared_ptr<Holder> m_holder;
};

} // namespace bpflens

Q_DECLARE_METATYPE(bpflens::SharedFd)
