// The file an object library needs to compile its precompiled header (cmake/pch.cmake).
