#pragma once

// Shared by the benchmark workloads: argument parsing with clear errors, and the one JSON line
// each prints. Plain C++ without Qt, so the workloads measure the system calls and not a
// framework's start-up.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include <sys/resource.h>
#include <time.h>

namespace bpflens::bench {

[[noreturn]] inline void die(const std::string &program, const std::string &message)
{
    std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
    std::exit(2);
}

// "--name value" pairs only; anything else is refused, so a typo cannot silently run the
// default size.
class Args
{
public:
    Args(int argc, char **argv, std::map<std::string, std::string> defaults)
        : m_program(argv[0])
        , m_values(std::move(defaults))
    {
        for (int i = 1; i < argc; i += 2) {
            const std::string name = argv[i];
            if (name.rfind("--", 0) != 0 || !m_values.count(name.substr(2)))
                die(m_program, "unknown option " + name + usage());
            if (i + 1 >= argc)
                die(m_program, name + " needs a value");
            m_values[name.substr(2)] = argv[i + 1];
        }
    }

    std::string text(const std::string &name) const { return m_values.at(name); }

    long long number(const std::string &name, long long min, long long max) const
    {
        const std::string &v = m_values.at(name);
        char *end = nullptr;
        errno = 0;
        const long long n = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || *end != '\0' || errno != 0 || n < min || n > max)
            die(m_program, "--" + name + " must be a whole number from " + std::to_string(min) +
                               " to " + std::to_string(max) + ", not '" + v + "'");
        return n;
    }

    const std::string &program() const { return m_program; }

private:
    std::string usage() const
    {
        std::string s = " (options:";
        for (const auto &[k, v] : m_values)
            s += " --" + k + " " + (v.empty() ? "VALUE" : v);
        return s + ")";
    }

    std::string m_program;
    std::map<std::string, std::string> m_values;
};

inline double cpuSeconds()
{
    // The children count too: the exec storm's work happens in the processes it starts.
    double total = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage ru{};
        getrusage(who, &ru);
        total += double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                 double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    }
    return total;
}

inline double wallSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// Times the measured part only (not the set-up) and prints the JSON line the runner reads.
class Measurement
{
public:
    explicit Measurement(std::string name)
        : m_name(std::move(name))
    {
    }
    void start()
    {
        m_wall = wallSeconds();
        m_cpu = cpuSeconds();
    }
    void finish(long long ops, const std::string &extra = {})
    {
        const double wall = wallSeconds() - m_wall;
        const double cpu = cpuSeconds() - m_cpu;
        std::printf("{\"workload\":\"%s\",\"ops\":%lld,\"wall_s\":%.6f,\"cpu_s\":%.6f%s%s}\n",
                    m_name.c_str(), ops, wall, cpu, extra.empty() ? "" : ",", extra.c_str());
        std::fflush(stdout);
    }

private:
    std::string m_name;
    double m_wall = 0;
    double m_cpu = 0;
};

} // namespace bpflens::bench
