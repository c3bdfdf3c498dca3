// The source of a target that exists to own a precompiled header (see
// cmake/mgnify_build_speed.cmake); the header is all it compiles.
