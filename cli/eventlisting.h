#pragma once

#include <QString>
#include <QTextStream>

namespace bpflens {

struct SessionData;

// `show --events`: a session's events a line each, as the BCC tools print them (opensnoop's
// FD/ERR decoded as the table shows them: "ENOENT", "O_RDONLY|O_CLOEXEC"), one table per event
// type with the columns of the GUI's table.
struct EventListing
{
    enum class TimeStyle
    {
        Relative, // seconds since the session's start, like execsnoop -t
        Clock,    // the local wall clock, like execsnoop -T (with milliseconds)
    };
    QString probe;       // only this probe's types; empty for all
    qsizetype limit = 0; // the first n of each type; 0 for all
    TimeStyle time = TimeStyle::Relative;

    void print(QTextStream &out, const SessionData &data) const;
};

} // namespace bpflens
