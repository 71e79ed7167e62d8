# The Debian package: `cpack -G DEB` in a configured and built build directory writes
# bpflens_<version>_<arch>.deb (README, "Install as a Debian package"; docs/packaging.md).
# It holds exactly what `cmake --install` installs, under /usr, plus the Debian copyright file.
# tests/packaging/debpackage.sh builds, inspects and installs it.

# The copyright file Debian wants in every package (licence as in the AppStream metainfo).
install(FILES ${PROJECT_SOURCE_DIR}/resources/debian/copyright
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/bpflens)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bpflens)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The BPF Lens developers")
set(CPACK_PACKAGE_CONTACT "The BPF Lens developers <https://github.com/bpflens/bpflens/issues>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/bpflens/bpflens")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "desktop eBPF profiler")
set(CPACK_PACKAGE_INSTALL_DIRECTORY bpflens)

# The files are installed with DESTDIR (the staging directory) and CMAKE_INSTALL_PREFIX=/usr:
# the install-time generation of the D-Bus activation file and the systemd unit
# (resources/CMakeLists.txt) writes ${CMAKE_INSTALL_PREFIX}/libexec/bpflens-helper into them,
# which must be /usr/libexec/..., never a path in the staging directory (CMake 3.25's DEB
# generator installs so either way; CPACK_SET_DESTDIR says it for every version, and
# tests/packaging/debpackage.sh checks the generated files in the package).
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_PACKAGE_NAME bpflens)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # bpflens_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${CPACK_PACKAGE_HOMEPAGE_URL})
# Debian wants "Name <e-mail>"; the project has no address of its own yet (lintian:
# malformed-contact). Whoever publishes packages sets theirs: -DBPFLENS_DEB_MAINTAINER=...
set(BPFLENS_DEB_MAINTAINER ${CPACK_PACKAGE_CONTACT} CACHE STRING
    "Maintainer field of the Debian package (cpack -G DEB)")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${BPFLENS_DEB_MAINTAINER})
# Architecture: CPack asks dpkg --print-architecture.
# The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the extended description ("." for
# an empty line; CPack indents each line by one space as dpkg wants).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "BPF Lens records with eBPF (libbpf CO-RE) what engineers reach for BCC
and libbpf-tools for: execsnoop, opensnoop, biolatency, biosnoop, runqlat,
tcpconnect, cachestat, ext4slower, CPU and off-CPU profiles with user stacks.
It keeps every event and histogram in a session file, and shows, compares and
exports them.
.
The package holds the Qt 6 desktop application (bpflens), the command-line
recorder (bpflens-cli) and bpflens-helper, the root helper that D-Bus starts
on demand on the system bus and that asks polkit (action
io.github.bpflens.trace) before it loads any probe.")

# Libraries (Qt 6, libbpf, libsqlite3, libdw/libelf, libstdc++...) from dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What no library dependency brings in but recording needs without another step: the system
# bus (dbus: the daemon, its system configuration and the setuid activation helper that starts
# bpflens-helper as root) and polkit's daemon (polkitd, called policykit-1 before bookworm).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "dbus (>= 1.12) | dbus-system-bus, polkitd | policykit-1")
# Qt's own strings (dialog buttons and the like) in the application's languages.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n")

# postinst/postrm only tell a running systemd about the unit; dbus, desktop-file-utils,
# shared-mime-info and hicolor-icon-theme have dpkg file triggers on the directories we
# install into, so the package does not run their tools itself.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/resources/debian/postinst
                                       ${PROJECT_SOURCE_DIR}/resources/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
