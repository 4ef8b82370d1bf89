#include "rmodel/base/package_path.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <system_error>
#include <utility>

#include <tinyxml2.h>

namespace rmodel {

namespace fs = std::filesystem;

namespace {

void append_entries(std::vector<fs::path>& dirs, std::string_view list, std::string_view suffix) {
  while (!list.empty()) {
    const std::size_t colon = list.find(':');
    const std::string_view entry = list.substr(0, colon);
    if (!entry.empty()) dirs.push_back(suffix.empty() ? fs::path(entry) : fs::path(entry) / suffix);
    if (colon == std::string_view::npos) break;
    list.remove_prefix(colon + 1);
  }
}

bool file_exists(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

bool directory_exists(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

/// What a directory's manifest says, as rospack reads it.
struct Manifest {
  enum class Kind { none, dry, wet } kind = Kind::none;
  std::string name;          ///< the package's name (the directory's name when the manifest gives none)
  bool metapackage = false;  ///< a wet metapackage, which `rospack find` does not answer
};

/// A dry (rosbuild) package is named by its directory, and its manifest.xml wins over a
/// package.xml beside it; a wet (catkin, ament) package by package.xml's <name>. A
/// package.xml that cannot be read or has no <name> leaves the directory's name.
Manifest read_manifest(const fs::path& dir) {
  Manifest m;
  m.name = dir.filename().string();
  if (file_exists(dir / "manifest.xml")) {
    m.kind = Manifest::Kind::dry;
    return m;
  }
  const fs::path package_xml = dir / "package.xml";
  if (!file_exists(package_xml)) return m;
  m.kind = Manifest::Kind::wet;
  std::ifstream in(package_xml, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // Collapsed whitespace, as rospack parses it: "<name> arm </name>" names "arm".
  tinyxml2::XMLDocument doc(true, tinyxml2::COLLAPSE_WHITESPACE);
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) return m;
  const tinyxml2::XMLElement* root = doc.FirstChildElement("package");
  if (!root) return m;
  if (const tinyxml2::XMLElement* name = root->FirstChildElement("name"); name && name->GetText())
    m.name = name->GetText();
  for (const tinyxml2::XMLElement* e = root->FirstChildElement("export"); e; e = e->NextSiblingElement("export"))
    if (e->FirstChildElement("metapackage")) m.metapackage = true;
  return m;
}

/// rospack's crawl of one ROS_PACKAGE_PATH entry, for one name: a directory holding a
/// manifest is a package and is not descended into; CATKIN_IGNORE hides a directory and
/// everything under it, rospack_nosubdirs everything under it; names starting with '.' are
/// skipped. Which of two packages of one name under one entry rospack answers depends on
/// the order it lists directories in; here the subdirectory of the package's name is
/// looked at first (so the common layout costs no crawl), then the others in sorted order.
class Crawl {
public:
  explicit Crawl(std::string_view name) : name_(name) {}

  std::optional<fs::path> find(const fs::path& dir, int depth = 0) {
    // Symbolic links are followed, as rospack follows them; each directory is entered once.
    struct stat st {};
    if (depth > kMaxDepth || ::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return std::nullopt;
    if (!visited_.emplace(st.st_dev, st.st_ino).second) return std::nullopt;
    if (file_exists(dir / "CATKIN_IGNORE")) return std::nullopt;
    const Manifest manifest = read_manifest(dir);
    if (manifest.kind != Manifest::Kind::none) {
      if (manifest.name == name_ && !manifest.metapackage) return dir;
      return std::nullopt;
    }
    if (file_exists(dir / "rospack_nosubdirs")) return std::nullopt;
    if (const auto found = find(dir / name_, depth + 1)) return found;
    std::vector<fs::path> children;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string child = it->path().filename().string();
      if (child.empty() || child[0] == '.' || child == name_) continue;
      std::error_code type_ec;
      if (it->is_directory(type_ec)) children.push_back(it->path());
    }
    std::sort(children.begin(), children.end());
    for (const auto& child : children)
      if (const auto found = find(child, depth + 1)) return found;
    return std::nullopt;
  }

private:
  static constexpr int kMaxDepth = 1000;  // rospack's bound
  std::string name_;
  std::set<std::pair<dev_t, ino_t>> visited_;
};

/// A package a whole crawl of one search directory met: its name, and its folder as the
/// names of the directories from the search directory down (empty: the search directory).
struct CrawledPackage {
  std::string name;
  std::vector<std::string> folders;
  bool metapackage = false;
};

/// Crawl's rules over everything under `dir`, every package kept (Crawl stops at the first of
/// one name). Children in sorted order; each directory entered once.
void crawl_all(const fs::path& dir, std::vector<std::string>& folders, int depth,
               std::set<std::pair<dev_t, ino_t>>& visited, std::vector<CrawledPackage>& out) {
  struct stat st {};
  if (depth > 1000 || ::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return;
  if (!visited.emplace(st.st_dev, st.st_ino).second) return;
  if (file_exists(dir / "CATKIN_IGNORE")) return;
  const Manifest manifest = read_manifest(dir);
  if (manifest.kind != Manifest::Kind::none) {
    out.push_back({manifest.name, folders, manifest.metapackage});
    return;
  }
  if (file_exists(dir / "rospack_nosubdirs")) return;
  std::vector<std::string> children;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string child = it->path().filename().string();
    if (child.empty() || child[0] == '.') continue;
    std::error_code type_ec;
    if (it->is_directory(type_ec)) children.push_back(std::move(child));
  }
  std::sort(children.begin(), children.end());
  for (const auto& child : children) {
    folders.push_back(child);
    crawl_all(dir / child, folders, depth + 1, visited, out);
    folders.pop_back();
  }
}

/// Whether Crawl(name) meets folder path `a` before `b`: at the first directory where they
/// part, the child called `name` first, then the others in sorted order.
bool crawled_first(const std::vector<std::string>& a, const std::vector<std::string>& b, std::string_view name) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    if (a[i] == name) return true;
    if (b[i] == name) return false;
    return a[i] < b[i];
  }
  return a.size() < b.size();
}

/// An ament install prefix's share directory answers from its resource index, not by crawling.
bool is_ament_share(const fs::path& dir) { return directory_exists(dir / "ament_index" / "resource_index" / "packages"); }

/// The folders named `name` the search offers, each with its manifest, in search order: an
/// entry itself (ROS_PACKAGE_PATH often names a package rather than its parent), then
/// entry/name. Where ROS's rules find nothing, these are what a user meant by the name.
std::vector<std::pair<fs::path, Manifest>> folders_named(std::string_view name, std::span<const fs::path> search) {
  std::vector<std::pair<fs::path, Manifest>> out;
  for (const auto& entry : search) {
    const fs::path dir = entry.has_filename() ? entry : entry.parent_path();
    for (const fs::path& candidate : {dir, dir / std::string(name)})
      if (candidate.filename() == name && directory_exists(candidate))
        out.emplace_back(candidate, read_manifest(candidate));
  }
  return out;
}

}  // namespace

std::vector<fs::path> package_search_path(std::span<const fs::path> given, std::string_view ros_package_path,
                                          std::string_view ament_prefix_path) {
  std::vector<fs::path> dirs(given.begin(), given.end());
  append_entries(dirs, ros_package_path, {});
  append_entries(dirs, ament_prefix_path, "share");
  return dirs;
}

std::vector<fs::path> package_search_path(std::span<const fs::path> given) {
  const char* ros = std::getenv("ROS_PACKAGE_PATH");
  const char* ament = std::getenv("AMENT_PREFIX_PATH");
  return package_search_path(given, ros ? std::string_view(ros) : std::string_view(),
                             ament ? std::string_view(ament) : std::string_view());
}

std::optional<fs::path> find_ros_package(std::string_view name, std::span<const fs::path> search) {
  // A package name is one path component: "../x" or "a/b" must not walk the file system.
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos) return std::nullopt;
  for (const auto& entry : search) {
    const fs::path dir = entry.has_filename() ? entry : entry.parent_path();
    if (is_ament_share(dir)) {
      if (file_exists(dir / "ament_index" / "resource_index" / "packages" / std::string(name)))
        return dir / std::string(name);
      continue;
    }
    if (auto found = Crawl(name).find(dir)) return found;
  }
  // Without ROS's rules: a directory of that name with no manifest at all.
  for (const auto& [folder, manifest] : folders_named(name, search))
    if (manifest.kind == Manifest::Kind::none) return folder;
  return std::nullopt;
}

std::optional<std::string> package_named_otherwise(std::string_view name, std::span<const fs::path> search) {
  for (const auto& [folder, manifest] : folders_named(name, search)) {
    if (manifest.kind == Manifest::Kind::wet && manifest.name != name)
      return folder.lexically_normal().string() + "/package.xml names its package '" + manifest.name + "'";
    if (manifest.kind == Manifest::Kind::wet && manifest.metapackage)
      return folder.lexically_normal().string() + " is a metapackage, which holds no files";
  }
  return std::nullopt;
}

namespace {

std::optional<fs::path> resolve_with(std::string_view uri, const fs::path& base_dir,
                                     const std::function<std::optional<fs::path>(std::string_view)>& find) {
  constexpr std::string_view kPackage = "package://";
  constexpr std::string_view kFile = "file://";
  if (uri.starts_with(kPackage)) {
    const std::string_view rest = uri.substr(kPackage.size());
    const std::size_t slash = rest.find('/');
    const auto package = find(rest.substr(0, slash));
    if (!package) return std::nullopt;
    if (slash == std::string_view::npos) return package;
    return *package / std::string(rest.substr(slash + 1));
  }
  if (uri.starts_with(kFile)) uri.remove_prefix(kFile.size());
  else if (uri.find("://") != std::string_view::npos) return std::nullopt;
  const fs::path path{std::string(uri)};
  return path.is_absolute() ? path : base_dir / path;
}

}  // namespace

std::optional<fs::path> resolve_resource_uri(std::string_view uri, const fs::path& base_dir,
                                             std::span<const fs::path> search) {
  return resolve_with(uri, base_dir, [&](std::string_view name) { return find_ros_package(name, search); });
}

// ---- PackageFinder ----

struct PackageFinder::State {
  std::vector<fs::path> search;
  /// Per search directory, once crawled: every package under it.
  std::vector<std::optional<std::vector<CrawledPackage>>> crawled;
  std::map<std::string, std::optional<fs::path>, std::less<>> answers;

  /// find_ros_package's answer from one non-ament search directory `dir` (index i).
  std::optional<fs::path> crawl_answer(std::size_t i, const fs::path& dir, std::string_view name) {
    if (!crawled[i]) {
      // The package's own folder answers as Crawl's first step would, without a crawl: the
      // directory is no package itself, nothing hides what is under it, and DIR/name holds
      // the package of that name.
      if (directory_exists(dir) && !file_exists(dir / "CATKIN_IGNORE") && !file_exists(dir / "rospack_nosubdirs") &&
          read_manifest(dir).kind == Manifest::Kind::none) {
        const fs::path own = dir / std::string(name);
        if (directory_exists(own) && !file_exists(own / "CATKIN_IGNORE")) {
          const Manifest m = read_manifest(own);
          if (m.kind != Manifest::Kind::none && m.name == name && !m.metapackage) return own;
        }
      }
      std::vector<CrawledPackage> all;
      std::vector<std::string> folders;
      std::set<std::pair<dev_t, ino_t>> visited;
      crawl_all(dir, folders, 0, visited, all);
      crawled[i] = std::move(all);
    }
    const CrawledPackage* best = nullptr;
    for (const CrawledPackage& p : *crawled[i])
      if (p.name == name && !p.metapackage && (!best || crawled_first(p.folders, best->folders, name))) best = &p;
    if (!best) return std::nullopt;
    fs::path out = dir;
    for (const auto& f : best->folders) out /= f;
    return out;
  }

  std::optional<fs::path> find(std::string_view name) {
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos) return std::nullopt;
    if (const auto it = answers.find(name); it != answers.end()) return it->second;
    std::optional<fs::path> answer;
    for (std::size_t i = 0; i < search.size() && !answer; ++i) {
      const fs::path dir = search[i].has_filename() ? search[i] : search[i].parent_path();
      if (is_ament_share(dir)) {
        if (file_exists(dir / "ament_index" / "resource_index" / "packages" / std::string(name)))
          answer = dir / std::string(name);
        continue;
      }
      answer = crawl_answer(i, dir, name);
    }
    if (!answer)
      for (const auto& [folder, manifest] : folders_named(name, search))
        if (manifest.kind == Manifest::Kind::none) {
          answer = folder;
          break;
        }
    answers.emplace(std::string(name), answer);
    return answer;
  }
};

PackageFinder::PackageFinder(std::vector<fs::path> search) : state_(std::make_unique<State>()) {
  state_->crawled.resize(search.size());
  state_->search = std::move(search);
}
PackageFinder::~PackageFinder() = default;
PackageFinder::PackageFinder(PackageFinder&&) noexcept = default;
PackageFinder& PackageFinder::operator=(PackageFinder&&) noexcept = default;

std::optional<fs::path> PackageFinder::find(std::string_view name) { return state_->find(name); }

std::optional<std::string> PackageFinder::named_otherwise(std::string_view name) const {
  return package_named_otherwise(name, state_->search);
}

std::optional<fs::path> PackageFinder::resolve(std::string_view uri, const fs::path& base_dir) {
  return resolve_with(uri, base_dir, [this](std::string_view name) { return state_->find(name); });
}

std::span<const fs::path> PackageFinder::search() const noexcept { return state_->search; }

}  // namespace rmodel
