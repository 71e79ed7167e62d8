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
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -rss_limit_mb=2048 -timeout=10
                        -print_final_stats=1 -artifact_prefix=${WORK}/ ${WORK}/corpus
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${FUZZER} failed (${rc}); the input that broke it is in ${WORK}/")
endif()
