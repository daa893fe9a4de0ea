# The Debian package (`make deb`: cpack in the build folder): what `cmake --install` installs,
# under /usr. dpkg-shlibdeps derives the library Depends from the program and the extension module;
# the rest is what they need at run time beside libraries.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME memplace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "memplace developers <memplace@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Reinforcement-learning environments for tensor memory placement on ML accelerators")
set(CPACK_PACKAGE_DESCRIPTION
    "The memplace program (tables, training, references, packing) and the Python package memplace.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The extension module is built for one Python minor version; numpy is imported at run time
# (pybind11's numpy support), so any python3-numpy does. mpirun is only needed for rank jobs.
if(MEMPLACE_WITH_PYTHON)
  math(EXPR next_minor "${Python_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}), python3 (<< ${Python_VERSION_MAJOR}.${next_minor}), python3-numpy")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS openmpi-bin)
include(CPack)
