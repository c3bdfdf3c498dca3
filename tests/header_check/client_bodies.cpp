// Header-only, each client's member bodies are templates that a program compiles only
// where it calls them, so including the headers checks none of them. This unit has
// every body of the three clients compiled (by explicit instantiation for an argument
// no program uses), so the header-only build checks them all; separate mode checks
// them where the library instantiates the clients.
#include "mgnify/mgnify.hpp"

template class mgnify::proteins::BasicProteinClient<int>;
template class mgnify::v1::BasicLegacyClient<int>;
template class mgnify::v2::BasicV2Client<int>;
