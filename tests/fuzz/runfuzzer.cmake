# cmake -DFUZZER=<binary> -DSEEDS=<corpus dir> -DWORK=<scratch dir> -DSECONDS=<n> -P runfuzzer.cmake
# Runs a libFuzzer binary for a bounded time on a copy of the committed seed corpus, so the seeds
# never change; inputs that crash are kept in WORK (crash-*, leak-*, timeout-*) for reproducing:
# <binary> WORK/crash-<hash>
foreach(var FUZZER SEEDS WORK SECONDS)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "runfuzzer.cmake: -D${var}=... is missing")
    endif()
endforeach()
if(NOT EXISTS ${FUZZER})
    message(FATAL_ERROR "${FUZZER} was not built (configure with -DBPFLENS_FUZZ=ON and build)")
endif()
file(REMOVE_RECURSE ${WORK}/corpus)
file(MAKE_DIRECTORY ${WORK}/corpus)
file(GLOB seeds ${SEEDS}/*)
file(COPY ${seeds} DESTINATION ${WORK}/corpus)
# libFuzzer's progress lines run to thousands; they go to a log, and only its end is shown, on
# failure, so that what broke stays at the end of a CI log instead of under the progress.
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -rss_limit_mb=2048 -timeout=10
                        -print_final_stats=1 -artifact_prefix=${WORK}/ ${WORK}/corpus
                OUTPUT_FILE ${WORK}/fuzz.log ERROR_FILE ${WORK}/fuzz.log
                RESULT_VARIABLE rc)
file(STRINGS ${WORK}/fuzz.log lines)
list(LENGTH lines count)
if(NOT rc EQUAL 0)
    # The crash report and the stack: the lines after the last progress line ("#N ... cov:").
    set(tail "")
    foreach(line IN LISTS lines)
        if(line MATCHES "^#[0-9]+\t")
            set(tail "")
        else()
            string(APPEND tail "${line}\n")
        endif()
    endforeach()
    message("${tail}")
    message(FATAL_ERROR "${FUZZER} failed (${rc}); the input that broke it is in ${WORK}/, "
                        "its whole output in ${WORK}/fuzz.log")
endif()
# The final stats, as a sign of how much it ran.
foreach(line IN LISTS lines)
    if(line MATCHES "^stat::")
        message("${line}")
    endif()
endforeach()
