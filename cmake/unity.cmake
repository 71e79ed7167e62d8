# Unity builds of the libraries: CMake compiles their files in batches, each batch one
# translation unit that includes its files. Every file of a library loads the same precompiled
# header and instantiates the same Qt and event type templates, then emits their code again;
# at -O0 that code is most of a file's compile. Five core files took 25.2 s compiled as one
# against 48.8 s one by one (docs/testing.md). A file's static functions and anonymous namespace
# are shared with the rest of its batch, so two files of a library cannot define the same
# internal name. Off (-DBPFLENS_UNITY=OFF) an edit recompiles one file instead of its batch.
option(BPFLENS_UNITY "Compile the libraries' files in batches (unity builds)" ON)

# bpflens_unity(<targets...>)
function(bpflens_unity)
    if(NOT BPFLENS_UNITY)
        return()
    endif()
    foreach(target IN LISTS ARGN)
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    endforeach()
endfunction()
