// Exec storm: fork + exec of bench-true, one at a time, each with the same recognisable
// arguments so the runner can check that a tracer kept every argv.

#include "workload.h"

#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(argc, argv, {{"count", "1000"}, {"args", "8"}, {"marker", "bpflensbench"}});
    const long long count = args.number("count", 1, 100000000);
    const long long nargs = args.number("args", 0, 64);
    const std::string marker = args.text("marker");

    // bench-true lives next to this program in build/<preset>/bin.
    std::string self(4096, '\0');
    const ssize_t n = readlink("/proc/self/exe", self.data(), self.size() - 1);
    if (n <= 0)
        die(args.program(), "cannot find my own directory (/proc/self/exe)");
    self.resize(size_t(n));
    const std::string target = self.substr(0, self.rfind('/') + 1) + "bench-true";
    if (access(target.c_str(), X_OK) != 0)
        die(args.program(), target + " is not an executable: build the bench targets first");

    std::vector<std::string> storage{target};
    for (long long i = 0; i < nargs; ++i)
        storage.push_back(marker + "-arg" + std::to_string(i));
    std::vector<char *> childArgv;
    for (std::string &s : storage)
        childArgv.push_back(s.data());
    childArgv.push_back(nullptr);

    Measurement m("exec");
    m.start();
    long long done = 0;
    for (; done < count; ++done) {
        const pid_t pid = fork();
        if (pid < 0)
            die(args.program(), std::string("fork: ") + std::strerror(errno));
        if (pid == 0) {
            execv(target.c_str(), childArgv.data());
            _exit(127);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            die(args.program(), "the child " + target + " did not run");
    }
    m.finish(done, "\"args\":" + std::to_string(nargs));
    return 0;
}
