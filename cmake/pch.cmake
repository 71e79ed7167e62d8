# Precompiled headers. Each of a build's ~420 files (most of them tests, one executable each)
# parsed the same Qt, standard and event type headers again: ten test files took 82.4 s of CPU,
# 51.5 s with them precompiled (docs/testing.md). Four headers, one for each kind of target;
# each is compiled once per build, by an object library of its own, and reused (REUSE_FROM) by
# every target of its kind. A reusing target must agree with it on what the headers test:
# compile options, and the macros Qt's headers look at (QtTest's qtestcase.h tests
# QT_TESTCASE_BUILDDIR, which Qt sets per directory, so the tests' two are made in tests/;
# qtest.h tests QT_GUI_LIB and the other module macros, so none of the four includes it). GCC
# says so when one does not (-Winvalid-pch, an error here).
option(BPFLENS_PCH "Precompile the Qt and standard headers most files include" ON)

# bpflens_pch_family(<kind> <header> <libs...>): the object library bpflens_pch_<kind> that
# compiles cmake/pch/<header>, with the include paths and macros of <libs>.
function(bpflens_pch_family kind header)
    if(NOT BPFLENS_PCH)
        return()
    endif()
    add_library(bpflens_pch_${kind} OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch/empty.cpp)
    target_link_libraries(bpflens_pch_${kind} PRIVATE ${ARGN})
    target_include_directories(bpflens_pch_${kind} PRIVATE ${PROJECT_SOURCE_DIR})
    target_precompile_headers(bpflens_pch_${kind} PRIVATE
                              $<$<COMPILE_LANGUAGE:CXX>:${PROJECT_SOURCE_DIR}/cmake/pch/${header}>)
    set_target_properties(bpflens_pch_${kind} PROPERTIES AUTOMOC OFF)
endfunction()

# bpflens_use_pch(<kind> <targets...>): the targets' C++ files start with kind's header.
function(bpflens_use_pch kind)
    if(NOT BPFLENS_PCH)
        return()
    endif()
    foreach(target IN LISTS ARGN)
        target_precompile_headers(${target} REUSE_FROM bpflens_pch_${kind})
        # Most of these files are empty (the tests include their moc output): loading the header
        # made each take 1.5 s of CPU instead of 0.01 s.
        get_target_property(dir ${target} BINARY_DIR)
        set_source_files_properties(${dir}/${target}_autogen/mocs_compilation.cpp
                                    TARGET_DIRECTORY ${target}
                                    PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endforeach()
endfunction()
